//===- TileSource.cpp - One kernel of a .tile file as tile IR -------------===//

#include "TileSource.h"

#include "compiler/Diagnostics.h"
#include "compiler/Limits.h"
#include "compiler/MLIRGen.h"
#include "compiler/Parser.h"
#include "compiler/Sema.h"

#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilehost;

std::unique_ptr<TileSource>
TileSource::load(llvm::StringRef path,
                 const std::optional<std::string> &kernelName,
                 const std::vector<std::string> &defines,
                 mlir::MLIRContext &context, llvm::raw_ostream &errors) {
  auto fail = [&](const llvm::Twine &message) {
    errors << "tile-host-run: error: " << message << "\n";
    return nullptr;
  };
  tilec::SemaOptions options;
  for (const std::string &define : defines) {
    auto [name, value] = llvm::StringRef(define).split('=');
    if (name.empty() || value.empty() || name.size() == define.size())
      return fail("-D " + define + ": expected NAME=VALUE");
    options.Defines.push_back({name.str(), value.str()});
  }
  if (kernelName)
    options.SelectedKernels.push_back(*kernelName);

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (!buffer)
    return fail("cannot read '" + path + "': " + buffer.getError().message());
  if ((*buffer)->getBufferSize() > tilec::limits::MaxSourceBytes)
    return fail("'" + path + "' is too large (more than " +
                llvm::Twine(tilec::limits::MaxSourceBytes) + " bytes)");

  std::unique_ptr<TileSource> source(new TileSource());
  source->file = std::make_unique<tilec::SourceFile>(
      path.str(), (*buffer)->getBuffer().str());
  tilec::DiagnosticEngine diagnostics(
      source->file.get(), [&](const std::string &text) { errors << text; });
  std::unique_ptr<tilec::ast::File> ast =
      tilec::parseFile(*source->file, diagnostics);
  if (diagnostics.hasErrors())
    return nullptr;
  std::unique_ptr<tilec::Program> program =
      tilec::analyze(*ast, options, diagnostics);
  if (diagnostics.hasErrors())
    return nullptr;
  if (program->Kernels.empty())
    return fail("'" + path + "' defines no kernel");
  if (!kernelName && program->Kernels.size() > 1) {
    std::string names;
    for (const tilec::KernelInfo &kernel : program->Kernels)
      names += (names.empty() ? "" : ", ") + kernel.Decl->Name.Name;
    return fail("'" + path + "' defines several kernels (" + names +
                "); choose one with --kernel");
  }

  context.printOpOnDiagnostic(false);
  tilec::loadFrontEndDialects(context);
  source->sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(source->file->getContents(),
                                       source->file->getName(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  source->handler = std::make_unique<mlir::SourceMgrDiagnosticHandler>(
      source->sourceMgr, &context, errors);
  for (const tilec::KernelInfo &kernel : program->Kernels) {
    if (!kernel.Selected)
      continue;
    source->module = tilec::generateKernel(context, *source->file, kernel);
    if (mlir::failed(mlir::verify(*source->module)))
      return nullptr;
  }
  return source;
}

mlir::tile::KernelOp TileSource::getKernel() {
  return *module->getOps<mlir::tile::KernelOp>().begin();
}

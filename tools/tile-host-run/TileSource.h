//===- TileSource.h - One kernel of a .tile file as tile IR -----*- C++ -*-===//
//
// Runs tilec's front end on a `.tile` file (parse, semantic analysis with
// `-D` overrides, MLIR generation, verification) for one kernel and keeps
// what later diagnostics need: MLIR errors from the lowering print as
// `file:line:col: error: ...` with the source line, as tilec's do.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEHOSTRUN_TILESOURCE_H
#define TILEC_TOOLS_TILEHOSTRUN_TILESOURCE_H

#include "compiler/SourceFile.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilehost {

/// A verified kernel of a `.tile` file, with its diagnostics set up.
class TileSource {
public:
  /// Loads kernel `kernelName` (the file's only kernel if not given) of the
  /// file at `path` with the `NAME=VALUE` overrides `defines`, in `context`.
  /// Reports errors to `errors` and returns null on failure.
  static std::unique_ptr<TileSource>
  load(llvm::StringRef path, const std::optional<std::string> &kernelName,
       const std::vector<std::string> &defines, mlir::MLIRContext &context,
       llvm::raw_ostream &errors);

  /// The kernel.
  mlir::tile::KernelOp getKernel();
  /// The file as given on the command line.
  llvm::StringRef getPath() const { return file->getName(); }
  /// The file's contents.
  llvm::StringRef getContents() const { return file->getContents(); }

private:
  TileSource() = default;

  std::unique_ptr<tilec::SourceFile> file;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> handler;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

} // namespace tilehost

#endif // TILEC_TOOLS_TILEHOSTRUN_TILESOURCE_H

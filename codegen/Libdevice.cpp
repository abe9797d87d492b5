//===- Libdevice.cpp - Linking CUDA's libdevice ---------------------------===//

#include "codegen/Libdevice.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace tilec;

bool tilec::referencesLibdevice(const llvm::Module &module) {
  for (const llvm::Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with("__nv_"))
      return true;
  return false;
}

llvm::Error tilec::linkLibdevice(llvm::Module &module,
                                 llvm::StringRef libdevicePath) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(libdevicePath);
  if (!buffer)
    return llvm::createStringError(
        buffer.getError(), "cannot read libdevice '" + libdevicePath.str() +
                               "': " + buffer.getError().message());
  llvm::Expected<std::unique_ptr<llvm::Module>> libdevice =
      llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), module.getContext());
  if (!libdevice)
    return llvm::createStringError(
        "cannot parse libdevice '" + libdevicePath.str() +
        "': " + llvm::toString(libdevice.takeError()));
  // libdevice carries an older data layout; adopt the kernel's to link
  // without warnings.
  (*libdevice)->setTargetTriple(module.getTargetTriple());
  (*libdevice)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(*libdevice),
                                llvm::Linker::Flags::LinkOnlyNeeded))
    return llvm::createStringError("cannot link libdevice '" +
                                   libdevicePath.str() + "'");

  llvm::internalizeModule(module, [](const llvm::GlobalValue &value) {
    const auto *function = llvm::dyn_cast<llvm::Function>(&value);
    return function &&
           function->getCallingConv() == llvm::CallingConv::PTX_Kernel;
  });
  if (!module.getModuleFlag("nvvm-reflect-ftz"))
    module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                         static_cast<uint32_t>(0));
  return llvm::Error::success();
}

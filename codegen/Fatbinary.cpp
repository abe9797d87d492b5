//===- Fatbinary.cpp - Packaging cubins and PTX into a fatbin -------------===//

#include "codegen/Fatbinary.h"

#include "codegen/ExternalTool.h"

#include <vector>

using namespace tilec;

llvm::Expected<std::string>
tilec::runFatbinary(llvm::StringRef fatbinaryPath,
                    llvm::ArrayRef<FatbinImage> images) {
  llvm::Expected<ScratchDirectory> scratch = ScratchDirectory::create();
  if (!scratch)
    return scratch.takeError();
  std::string fatbinPath = scratch->file("kernel.fatbin");
  std::vector<std::string> args = {"-64", "--create", fatbinPath};
  for (size_t i = 0; i < images.size(); ++i) {
    const FatbinImage &image = images[i];
    std::string path = scratch->file("image" + std::to_string(i) +
                                     (image.isCubin ? ".cubin" : ".ptx"));
    if (llvm::Error error = writeFile(path, image.bytes))
      return std::move(error);
    args.push_back(
        "--image3=kind=" + std::string(image.isCubin ? "elf" : "ptx") +
        ",sm=" + image.sm + ",file=" + path);
  }
  llvm::Expected<ToolRun> run = runTool(fatbinaryPath, args);
  if (!run)
    return run.takeError();
  if (run->exitCode != 0)
    return llvm::createStringError("fatbinary failed:\n" +
                                   llvm::StringRef(run->output).rtrim().str());
  return readFile(fatbinPath);
}

//===- Fatbinary.cpp - Packaging cubins and PTX into a fatbin -------------===//

#include "codegen/Fatbinary.h"

#include "codegen/ExternalTool.h"

#include <vector>

using namespace tilec;

std::string tilec::getFatbinImageName(size_t index, bool isCubin) {
  return "image" + std::to_string(index) + (isCubin ? ".cubin" : ".ptx");
}

std::vector<std::string>
tilec::getFatbinaryArguments(llvm::StringRef fatbinPath,
                             llvm::ArrayRef<FatbinImage> images,
                             llvm::ArrayRef<std::string> imagePaths) {
  std::vector<std::string> args = {"-64", "--create", fatbinPath.str()};
  for (size_t i = 0; i < images.size(); ++i)
    args.push_back(
        "--image3=kind=" + std::string(images[i].isCubin ? "elf" : "ptx") +
        ",sm=" + images[i].sm + ",file=" + imagePaths[i]);
  return args;
}

llvm::Expected<std::string>
tilec::runFatbinary(llvm::StringRef fatbinaryPath,
                    llvm::ArrayRef<FatbinImage> images) {
  llvm::Expected<ScratchDirectory> scratch = ScratchDirectory::create();
  if (!scratch)
    return scratch.takeError();
  std::string fatbinPath = scratch->file("kernel.fatbin");
  std::vector<std::string> paths;
  for (size_t i = 0; i < images.size(); ++i) {
    paths.push_back(scratch->file(getFatbinImageName(i, images[i].isCubin)));
    if (llvm::Error error = writeFile(paths.back(), images[i].bytes))
      return std::move(error);
  }
  llvm::Expected<ToolRun> run =
      runTool(fatbinaryPath, getFatbinaryArguments(fatbinPath, images, paths));
  if (!run)
    return run.takeError();
  if (run->exitCode != 0)
    return llvm::createStringError("fatbinary failed:\n" +
                                   llvm::StringRef(run->output).rtrim().str());
  return readFile(fatbinPath);
}

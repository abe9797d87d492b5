//===- Ptxas.cpp - Assembling PTX into a cubin with ptxas -----------------===//

#include "codegen/Ptxas.h"

#include "codegen/ExternalTool.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace tilec;

llvm::Expected<PtxasVersion> tilec::parsePtxasVersion(llvm::StringRef output) {
  // The last line carrying ", V<version>" names the full version.
  size_t at = output.rfind(", V");
  if (at == llvm::StringRef::npos)
    return llvm::createStringError("cannot find a version in ptxas output: '" +
                                   output.trim().str() + "'");
  llvm::StringRef text = output.drop_front(at + 3).take_while(
      [](char c) { return llvm::isDigit(c) || c == '.'; });
  llvm::SmallVector<llvm::StringRef, 3> parts;
  text.split(parts, '.');
  PtxasVersion version;
  if (parts.size() < 2 || parts[0].getAsInteger(10, version.major) ||
      parts[1].getAsInteger(10, version.minor))
    return llvm::createStringError("malformed ptxas version '" + text.str() +
                                   "'");
  version.text = text.str();
  return version;
}

llvm::Expected<PtxasVersion>
tilec::queryPtxasVersion(llvm::StringRef ptxasPath) {
  llvm::Expected<ToolRun> run = runTool(ptxasPath, {"--version"});
  if (!run)
    return run.takeError();
  if (run->exitCode != 0)
    return llvm::createStringError("'" + ptxasPath.str() +
                                   " --version' failed: " + run->output);
  return parsePtxasVersion(run->output);
}

std::vector<std::string> tilec::getPtxasArguments(const GpuTarget &target,
                                                  unsigned optLevel,
                                                  bool lineInfo,
                                                  llvm::StringRef ptxPath,
                                                  llvm::StringRef cubinPath) {
  std::vector<std::string> args = {"-arch=" + target.arch,
                                   "-O" + std::to_string(optLevel), "-v"};
  if (lineInfo)
    args.push_back("-lineinfo");
  args.insert(args.end(), {"--output-file", cubinPath.str(), ptxPath.str()});
  return args;
}

llvm::Expected<PtxasOutput> tilec::runPtxas(llvm::StringRef ptxasPath,
                                            llvm::StringRef ptx,
                                            const GpuTarget &target,
                                            unsigned optLevel, bool lineInfo) {
  llvm::Expected<ScratchDirectory> scratch = ScratchDirectory::create();
  if (!scratch)
    return scratch.takeError();
  std::string ptxPath = scratch->file("kernel.ptx");
  std::string cubinPath = scratch->file("kernel.cubin");
  if (llvm::Error error = writeFile(ptxPath, ptx))
    return std::move(error);

  llvm::Expected<ToolRun> run =
      runTool(ptxasPath, getPtxasArguments(target, optLevel, lineInfo, ptxPath,
                                           cubinPath));
  if (!run)
    return run.takeError();
  if (run->exitCode != 0)
    return llvm::createStringError("ptxas failed for " + target.arch + ":\n" +
                                   llvm::StringRef(run->output).rtrim().str());

  llvm::Expected<std::string> cubin = readFile(cubinPath);
  if (!cubin)
    return cubin.takeError();
  PtxasOutput output;
  output.cubin = std::move(*cubin);
  output.report = std::move(run->output);
  return output;
}

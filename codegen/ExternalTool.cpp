//===- ExternalTool.cpp - Running CUDA command-line tools -----------------===//

#include "codegen/ExternalTool.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace tilec;

llvm::Expected<ScratchDirectory> ScratchDirectory::create() {
  llvm::SmallString<128> path;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("tilec", path))
    return llvm::createStringError(ec, "cannot create a temporary directory: " +
                                           ec.message());
  return ScratchDirectory(path);
}

ScratchDirectory::ScratchDirectory(ScratchDirectory &&other)
    : dir(std::move(other.dir)) {
  other.dir.clear();
}

ScratchDirectory::~ScratchDirectory() {
  if (!dir.empty())
    llvm::sys::fs::remove_directories(dir, /*IgnoreErrors=*/true);
}

std::string ScratchDirectory::file(llvm::StringRef fileName) const {
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, fileName);
  return std::string(path);
}

llvm::Expected<ToolRun> tilec::runTool(llvm::StringRef program,
                                       llvm::ArrayRef<std::string> args) {
  llvm::Expected<ScratchDirectory> scratch = ScratchDirectory::create();
  if (!scratch)
    return scratch.takeError();
  std::string logPath = scratch->file("output.log");

  llvm::SmallVector<llvm::StringRef> argv{program};
  for (const std::string &arg : args)
    argv.push_back(arg);
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(), llvm::StringRef(logPath), llvm::StringRef(logPath)};
  std::string errorMessage;
  bool executionFailed = false;
  int status = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &errorMessage,
                                         &executionFailed);
  if (executionFailed)
    return llvm::createStringError("cannot run '" + program.str() +
                                   "': " + errorMessage);
  ToolRun run;
  run.exitCode = status;
  if (llvm::Expected<std::string> output = readFile(logPath))
    run.output = std::move(*output);
  else
    return output.takeError();
  if (status < 0)
    run.output += errorMessage;
  return run;
}

llvm::Error tilec::writeFile(llvm::StringRef path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(ec, "cannot write '" + path.str() +
                                           "': " + ec.message());
  os << bytes;
  os.close();
  if (os.has_error()) {
    std::error_code writeError = os.error();
    os.clear_error();
    return llvm::createStringError(writeError,
                                   "cannot write '" + path.str() +
                                       "': " + writeError.message());
  }
  return llvm::Error::success();
}

llvm::Expected<std::string> tilec::readFile(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read '" + path.str() +
                                       "': " + buffer.getError().message());
  return (*buffer)->getBuffer().str();
}

//===- ExternalTool.h - Running CUDA command-line tools ---------*- C++ -*-===//
//
// ptxas and fatbinary work on files, so every invocation gets a private
// scratch directory that disappears with it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_EXTERNALTOOL_H
#define TILEC_CODEGEN_EXTERNALTOOL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tilec {

/// A uniquely named temporary directory, removed with its contents when the
/// object is destroyed.
class ScratchDirectory {
public:
  /// Creates the directory under the system temporary directory.
  static llvm::Expected<ScratchDirectory> create();
  ScratchDirectory(ScratchDirectory &&other);
  ScratchDirectory(const ScratchDirectory &) = delete;
  ScratchDirectory &operator=(const ScratchDirectory &) = delete;
  ScratchDirectory &operator=(ScratchDirectory &&) = delete;
  ~ScratchDirectory();

  /// The path of `fileName` inside the directory.
  std::string file(llvm::StringRef fileName) const;

private:
  explicit ScratchDirectory(llvm::StringRef path) : dir(path) {}
  llvm::SmallString<128> dir;
};

/// Outcome of running a tool to completion.
struct ToolRun {
  /// The process exit status.
  int exitCode = 0;
  /// Everything the tool wrote to stdout and stderr, interleaved.
  std::string output;
};

/// Runs `program` with `args` (not including argv[0]), stdin closed, and
/// captures its output. Fails only if the program could not be started; a
/// non-zero exit status is returned in the result.
llvm::Expected<ToolRun> runTool(llvm::StringRef program,
                                llvm::ArrayRef<std::string> args);

/// Writes `bytes` to the file `path`, replacing it.
llvm::Error writeFile(llvm::StringRef path, llvm::StringRef bytes);

/// Reads the whole file `path`.
llvm::Expected<std::string> readFile(llvm::StringRef path);

} // namespace tilec

#endif // TILEC_CODEGEN_EXTERNALTOOL_H

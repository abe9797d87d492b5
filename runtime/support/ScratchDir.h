//===- ScratchDir.h - Temporary directories for tests -----------*- C++ -*-===//
//
// Support code for the unit and GPU tests (not part of libtilert).
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_SUPPORT_SCRATCHDIR_H
#define TILERT_SUPPORT_SCRATCHDIR_H

#include "Status.h"

#include <string>

namespace tilert::support {

/// A fresh directory under the system's temporary directory, removed with
/// its contents on destruction.
class ScratchDir {
public:
  /// An empty object; create() makes the directory.
  ScratchDir() = default;
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
  ~ScratchDir();

  /// Creates the directory.
  detail::Status create();

  /// The directory's path.
  const std::string &path() const { return Path; }

  /// Writes `bytes` to the relative path `name` inside the directory
  /// (creating subdirectories) and sets `written` to the file's path.
  detail::Status write(const std::string &name, const std::string &bytes,
                       std::string &written) const;

private:
  std::string Path;
};

} // namespace tilert::support

#endif // TILERT_SUPPORT_SCRATCHDIR_H

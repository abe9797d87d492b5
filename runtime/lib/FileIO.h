//===- FileIO.h - Reading whole files ---------------------------*- C++ -*-===//

#ifndef TILERT_LIB_FILEIO_H
#define TILERT_LIB_FILEIO_H

#include "Status.h"

#include <string>

namespace tilert::detail {

/// Reads the regular file at `path` into `out`. Errors are TILERT_ERROR_IO
/// with the path and the system's reason.
Status readFile(const std::string &path, std::string &out);

/// Returns the relative path `file` resolved against the directory that
/// contains `base`.
std::string siblingPath(const std::string &base, const std::string &file);

} // namespace tilert::detail

#endif // TILERT_LIB_FILEIO_H

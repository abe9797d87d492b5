//===- DepFile.h - Make-style dependency files ------------------*- C++ -*-===//
//
// The dependency rule tilec writes for build systems with -MD / -M (the
// clang and nvcc spelling): `TARGETS: PREREQUISITES` on one line, where the
// targets are the files the run writes and the prerequisites the `.tile`
// files it read. CMake (add_custom_command DEPFILE), Ninja (deps = gcc) and
// Make read it to rerun tilec exactly when an input changed.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_DEPFILE_H
#define TILEC_COMPILER_DEPFILE_H

#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// Returns `Path` escaped as a Make target or prerequisite, as clang writes
/// it: a space or `#` is preceded by a backslash (as are the backslashes in
/// front of it), and `$` is doubled.
std::string escapeMakePath(std::string_view Path);

/// Returns the Make rule `Targets: Prerequisites`, each path escaped, ending
/// in a newline.
std::string formatMakeRule(const std::vector<std::string> &Targets,
                           const std::vector<std::string> &Prerequisites);

} // namespace tilec

#endif // TILEC_COMPILER_DEPFILE_H

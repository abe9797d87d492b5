//===- OutputNames.h - Names of the files tilec writes ----------*- C++ -*-===//
//
// How tilec names its outputs, so that build systems and tuners can predict
// them: `<stem>.<arch>.<ext>` per kernel and architecture (`<stem>.fatbin`
// for a fatbin), where the stem is the kernel's name followed by one
// `-NAME_VALUE` per compile-time parameter whose value differs from its
// default. `-D dtype=f16` on vector_add (default f32) writes
// `vector_add-dtype_f16.sm_90a.cubin`; `-D dtype=f32` writes
// `vector_add.sm_90a.cubin`, like no `-D` at all. Also how `-o` is read: a
// directory, a single file, or standard output.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_OUTPUTNAMES_H
#define TILEC_COMPILER_OUTPUTNAMES_H

#include "compiler/Sema.h"

#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// A compile-time parameter whose value differs from its default.
struct ParamSetting {
  /// The parameter's name.
  std::string Name;
  /// Its value, spelled as in the source (`f16`, `64`, `true`, `1.5`).
  std::string Value;
};

/// Returns the compile-time parameters of `Kernel` (analyzed) whose values
/// differ from their defaults, in declaration order.
std::vector<ParamSetting> getChangedParams(const KernelInfo &Kernel);

/// Returns the file-name stem of kernel `Kernel` compiled with `Settings`:
/// `Kernel`, then `-NAME_VALUE` for each setting in order. A character of a
/// value other than a letter, a digit, `.`, `+` and `-` becomes `_`.
std::string getVariantStem(std::string_view Kernel,
                           const std::vector<ParamSetting> &Settings);

/// What `-o PATH` names.
enum class OutputKind {
  /// `-`: standard output.
  Stdout,
  /// A directory that receives `<stem>.<arch>.<ext>` files.
  Directory,
  /// The single file written.
  File,
};

/// Classifies `-o Path`. `IsDirectory` says whether `Path` is an existing
/// directory. `-` is standard output; a name with the extension of an
/// artifact (`.ast`, `.mlir`, `.ll`, `.ptx`, `.cubin`, `.fatbin`, `.json`)
/// that is not an existing directory is a file; anything else (`out`,
/// `out/`, `build.tmp`) is a directory.
OutputKind classifyOutput(std::string_view Path, bool IsDirectory);

} // namespace tilec

#endif // TILEC_COMPILER_OUTPUTNAMES_H

//===- OutputNames.h - Names of the files tilec writes ----------*- C++ -*-===//
//
// How tilec names its outputs, so that build systems and tuners can predict
// them: `<stem>.<arch>.<ext>` per kernel and architecture (`<stem>.fatbin`
// for a fatbin), where the stem is the kernel's name followed by one
// `-NAME_VALUE` per compile-time parameter whose value differs from its
// default. `-D dtype=f16` on vector_add (default f32) writes
// `vector_add-dtype_f16.sm_90a.cubin`; `-D dtype=f32` writes
// `vector_add.sm_90a.cubin`, like no `-D` at all. `--output-name` replaces
// the stem with a template (`{kernel}-{dtype}-b{block}`). Also how `-o` is
// read: a directory, a single file, or standard output.
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

/// Returns every compile-time parameter of `Kernel` (analyzed) with its
/// value, in declaration order.
std::vector<ParamSetting> getParamValues(const KernelInfo &Kernel);

/// Expands the `--output-name` template `Template` into a file-name stem:
/// `{kernel}` is `Kernel`, `{variant}` is getVariantStem's stem `Variant`,
/// and `{NAME}` is the value of compile-time parameter NAME in `Params`
/// (made safe for file names like getVariantStem's values); other text is
/// kept. On a malformed template (an unclosed `{`, an unknown placeholder,
/// a `/`, an empty result) sets `Error` to the message and returns "".
std::string expandOutputName(std::string_view Template, std::string_view Kernel,
                             std::string_view Variant,
                             const std::vector<ParamSetting> &Params,
                             std::string &Error);

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

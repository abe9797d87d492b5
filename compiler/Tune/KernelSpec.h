//===- KernelSpec.h - A .tile kernel, as a tuner sees it --------*- C++ -*-===//
//
// What the tuner needs of the kernel a tuning space is for, from the front
// end alone (no MLIR): its compile-time parameters with their kinds and
// defaults and its symbolic dimensions, to check the space against; and, per
// candidate, what the front end says of the kernel compiled with the
// candidate's values: the file-name stem tilec gives that variant, the
// errors of semantic analysis, and whether its shared-memory tiles fit in a
// block of each target (Sema.h, checkSharedMemoryLimit), and its launch
// signature (which every variant of a package shares).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_TUNE_KERNELSPEC_H
#define TILEC_COMPILER_TUNE_KERNELSPEC_H

#include "compiler/Diagnostics.h"
#include "compiler/Sema.h"
#include "compiler/SourceFile.h"
#include "compiler/Target.h"
#include "compiler/Types.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// A compile-time parameter of a kernel.
struct KernelParam {
  /// Its name.
  std::string Name;
  /// Its default value, which also gives its kind.
  Constant Default;
};

/// What the front end says of one candidate of a tuning space.
struct CandidateCheck {
  /// The file-name stem tilec gives the variant (compiler/OutputNames.h):
  /// the kernel's name, then `-NAME_VALUE` per value that differs from the
  /// default. Empty when `Error` is set.
  std::string Stem;
  /// The first error of the front end with these values, rendered on one
  /// line (`file:line:col: error: ...`); empty if none.
  std::string Error;
  /// For each architecture checked: why the kernel's shared-memory tiles do
  /// not fit in one block of it, or empty if they do.
  std::vector<std::string> SharedMemory;
  /// The kernel's launch signature with these values, as written in
  /// messages: `A: f16[M, K], B: f16[K, N]; alpha: f32` (the tensors, then
  /// the scalars). Empty when `Error` is set.
  std::string Signature;
};

/// A kernel of a `.tile` file.
class KernelSpec {
public:
  /// Analyzes the `.tile` file `Source` with the defaults and selects its
  /// kernel `Kernel` (empty: the file's only kernel). Front-end errors go
  /// to `Sink`, rendered as tilec renders them; a kernel that cannot be
  /// selected (none, several, no such name) sets `SelectionError` to a
  /// sentence saying why. Returns null after either.
  static std::unique_ptr<KernelSpec> load(std::unique_ptr<SourceFile> Source,
                                          const std::string &Kernel,
                                          const DiagnosticSink &Sink,
                                          std::string &SelectionError);

  /// Returns the path of the file as given.
  const std::string &getPath() const { return Source->getName(); }
  /// Returns the file's bytes.
  std::string_view getContents() const { return Source->getContents(); }
  /// Returns the kernel's name.
  const std::string &getName() const { return Name; }
  /// Returns the compile-time parameters in declaration order.
  const std::vector<KernelParam> &getParams() const { return Params; }
  /// Returns the symbolic dimensions in order of first appearance.
  const std::vector<std::string> &getDims() const { return Dims; }

  /// Runs the front end on the kernel with the overrides `Defines` (as
  /// `-D` gives them) and checks its shared memory against each of `Archs`.
  CandidateCheck check(const std::vector<Define> &Defines,
                       const std::vector<Arch> &Archs) const;

private:
  KernelSpec(std::unique_ptr<SourceFile> Source, std::string Name)
      : Source(std::move(Source)), Name(std::move(Name)) {}

  std::unique_ptr<SourceFile> Source;
  std::string Name;
  std::vector<KernelParam> Params;
  std::vector<std::string> Dims;
};

} // namespace tilec

#endif // TILEC_COMPILER_TUNE_KERNELSPEC_H

//===- Workload.h - tile-bench's dims, scalars and FLOP model ---*- C++ -*-===//

#ifndef TILEBENCH_WORKLOAD_H
#define TILEBENCH_WORKLOAD_H

#include "Status.h"

#include "tilert/tilert.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilebench {

/// A user error (command line, workload, device); main prints it and fails.
class BenchError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Throws BenchError("STATUS_NAME: message") unless `status` is a success.
void check(const tilert::detail::Status &status);

/// The launch arguments a command line describes.
struct Workload {
  /// The kernel's dims, in its order, with their values.
  std::vector<std::string> DimNames;
  std::vector<int64_t> DimValues;
  /// The kernel's scalars, in its order, as given and as typed values.
  std::vector<std::string> ScalarNames;
  std::vector<std::string> ScalarText;
  std::vector<tilert::Scalar> Scalars;
  /// Each tensor's shape.
  std::vector<std::vector<int64_t>> Shapes;
  /// The sum of the tensors' sizes in bytes.
  uint64_t Bytes = 0;
};

/// Resolves `--dim NAME=VALUE` and `--scalar NAME=VALUE` arguments against
/// `kernel`. A dim value is an integer expression (`1024*1024`). Throws
/// BenchError for an unknown, repeated or missing name or a bad value.
Workload resolveWorkload(const tilert::Kernel &kernel,
                         const std::vector<std::string> &dims,
                         const std::vector<std::string> &scalars);

/// Evaluates the FLOP model `expression` (an integer expression over the
/// kernel's dims, e.g. `2*M*N*K`). Throws BenchError on error.
int64_t evaluateFlops(const std::string &expression, const Workload &workload);

} // namespace tilebench

#endif // TILEBENCH_WORKLOAD_H

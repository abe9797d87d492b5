//===- TestSupport.h - Fixtures for the runtime unit tests ------*- C++ -*-===//

#ifndef TILERT_TEST_RUNTIME_TESTSUPPORT_H
#define TILERT_TEST_RUNTIME_TESTSUPPORT_H

#include "Metadata.h"
#include "ScratchDir.h"
#include "Status.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tilert::test {

/// Contents of the fake binaries baseMetadata() describes.
inline const std::string CubinBytes = "not really a cubin\x01\x02\x03";
inline const std::string PtxBytes = ".version 8.3\n.target sm_90a\n";

/// A valid vector_add<f32> metadata document: A, B, C: f32[N], grid
/// ceildiv(N, 1024), block 256, a cubin and a PTX binary.
nlohmann::json baseMetadata();

/// A valid metadata document with tensors A: f32[M, K], B: f32[K, N],
/// C: f32[M, 128], dims M, K, N and scalars alpha: f32, flag: bool.
nlohmann::json gemmLikeMetadata();

/// A valid metadata document of an sm_90a TMA GEMM: tensors A: f16[M, K],
/// B: f16[K, N], C: f32[M, N], dims M, K, N, and tensor maps A_map (A, box
/// [128, 64], swizzle 128, L2 promotion 128, zero fill) and B_map (B, box
/// [64, 64], swizzle 128, L2 promotion 256, nan fill).
nlohmann::json tmaGemmMetadata();

/// A `tensor_map` param of the tensor param `tensor` (docs/metadata.md).
nlohmann::json tensorMapParam(const std::string &name,
                              const std::string &tensor, std::vector<int> box,
                              int swizzle, int l2Promotion,
                              const std::string &oobFill);

/// The index.json entry of a package variant (docs/tuning.md) whose files
/// are `name`.`arch`.json and `name`.`arch`.cubin.
nlohmann::json packageVariant(const std::string &name, const std::string &arch);

/// An index.json document of kernel `kernel` with `variants` (entries of
/// packageVariant) and default variant `defaultName`.
nlohmann::json packageIndex(const std::string &kernel,
                            const std::vector<nlohmann::json> &variants,
                            const std::string &defaultName);

/// Parses `document` (serialized) as metadata named "k.json".
detail::Status parse(const nlohmann::json &document,
                     detail::KernelMetadata &out);

/// Parses `document` and fails the test unless it is valid.
detail::KernelMetadata parseValid(const nlohmann::json &document);

/// A fresh directory, removed with its contents on destruction.
class TempDir {
public:
  TempDir();

  /// The directory's path.
  const std::string &path() const { return Dir.path(); }

  /// Writes `bytes` to `name` inside the directory; returns the file's path.
  std::string write(const std::string &name, const std::string &bytes) const;

  /// Writes `document` as k.json plus the fake binaries; returns k.json's
  /// path.
  std::string writeKernel(const nlohmann::json &document) const;

  /// Writes the files of package variant `name` for `arch`: `document` as
  /// its metadata, with its arch and its one binary, a cubin of `cubin`'s
  /// bytes, set to match (see packageVariant).
  void writeVariant(const std::string &name, const std::string &arch,
                    nlohmann::json document,
                    const std::string &cubin = CubinBytes) const;

private:
  support::ScratchDir Dir;
};

/// A DLTensor with owned shape and strides arrays.
class FakeTensor {
public:
  /// A CUDA tensor on device 0 of dtype `dtype` with `shape`, compact
  /// row-major (NULL strides), at a 256-byte aligned fake address.
  FakeTensor(tilertDType dtype, std::vector<int64_t> shape);
  FakeTensor(const FakeTensor &) = delete;
  FakeTensor &operator=(const FakeTensor &) = delete;

  /// Gives the tensor explicit strides (in elements).
  FakeTensor &withStrides(std::vector<int64_t> strides);

  /// The DLTensor (pointing into this object).
  DLTensor *get() { return &Tensor; }
  /// Access to the DLTensor's fields.
  DLTensor *operator->() { return &Tensor; }

private:
  std::vector<int64_t> Shape;
  std::vector<int64_t> Strides;
  DLTensor Tensor;
};

} // namespace tilert::test

#endif // TILERT_TEST_RUNTIME_TESTSUPPORT_H

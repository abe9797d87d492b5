//===- OutputCheck.cpp - Validating a variant against a reference ---------===//

#include "OutputCheck.h"

#include "DType.h"
#include "FileIO.h"
#include "HostRandom.h"
#include "Workload.h"

#include "tilert/float16.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace tilebench {

namespace {

using tilert::detail::checkCu;

/// Element `index` of `data`, of floating-point `dtype`, as a double.
double floatElement(tilertDType dtype, const char *data, size_t index) {
  switch (dtype) {
  case TILERT_DTYPE_F16: {
    uint16_t Bits;
    std::memcpy(&Bits, data + 2 * index, 2);
    return tilert::floatFromHalf(Bits);
  }
  case TILERT_DTYPE_BF16: {
    uint16_t Bits;
    std::memcpy(&Bits, data + 2 * index, 2);
    return tilert::floatFromBfloat16(Bits);
  }
  case TILERT_DTYPE_F32: {
    float Value;
    std::memcpy(&Value, data + 4 * index, 4);
    return Value;
  }
  default: {
    double Value;
    std::memcpy(&Value, data + 8 * index, 8);
    return Value;
  }
  }
}

bool isFloatingPoint(tilertDType dtype) {
  return dtype == TILERT_DTYPE_F16 || dtype == TILERT_DTYPE_BF16 ||
         dtype == TILERT_DTYPE_F32 || dtype == TILERT_DTYPE_F64;
}

/// Sums over one chunk of elements.
struct Partial {
  double Difference = 0;
  double Reference = 0;
  size_t Mismatches = 0;
  size_t FirstMismatch = std::numeric_limits<size_t>::max();
};

/// Compares `count` floating-point elements.
Partial compareFloats(tilertDType dtype, const char *reference,
                      const char *output, size_t count) {
  size_t Chunks =
      (count + tilert::support::ChunkSize - 1) / tilert::support::ChunkSize;
  std::vector<Partial> Sums(Chunks);
  tilert::support::parallelChunks(
      count, [&](size_t Begin, size_t End, size_t Chunk) {
        Partial &Sum = Sums[Chunk];
        for (size_t I = Begin; I < End; ++I) {
          double Ref = floatElement(dtype, reference, I);
          double Out = floatElement(dtype, output, I);
          bool RefFinite = std::isfinite(Ref), OutFinite = std::isfinite(Out);
          if (RefFinite && OutFinite) {
            Sum.Difference += (Out - Ref) * (Out - Ref);
            Sum.Reference += Ref * Ref;
            continue;
          }
          // NaN where the reference has NaN, or the same infinity, matches.
          bool Same = (std::isnan(Ref) && std::isnan(Out)) ||
                      (std::isinf(Ref) && Ref == Out);
          if (!Same) {
            ++Sum.Mismatches;
            Sum.FirstMismatch = std::min(Sum.FirstMismatch, I);
          }
        }
      });
  Partial Total;
  for (const Partial &Sum : Sums) {
    Total.Difference += Sum.Difference;
    Total.Reference += Sum.Reference;
    Total.Mismatches += Sum.Mismatches;
    Total.FirstMismatch = std::min(Total.FirstMismatch, Sum.FirstMismatch);
  }
  return Total;
}

/// Compares `count` elements of `size` bytes for equality.
Partial compareExactly(size_t size, const char *reference, const char *output,
                       size_t count) {
  Partial Total;
  for (size_t I = 0; I < count; ++I)
    if (std::memcmp(reference + I * size, output + I * size, size) != 0) {
      if (!Total.Mismatches)
        Total.FirstMismatch = I;
      ++Total.Mismatches;
    }
  return Total;
}

std::string mismatchText(const Partial &partial, size_t count,
                         const char *what) {
  return std::to_string(partial.Mismatches) + " of " + std::to_string(count) +
         " elements " + what + " (the first at flat index " +
         std::to_string(partial.FirstMismatch) + ")";
}

} // namespace

std::vector<TensorAccess> readTensorAccess(const std::string &metadataPath,
                                           size_t count) {
  std::string Bytes;
  if (!tilert::detail::readFile(metadataPath, Bytes).ok())
    throw BenchError(metadataPath + ": cannot be read");
  nlohmann::json Root =
      nlohmann::json::parse(Bytes, nullptr, /*allow_exceptions=*/false);
  auto Params = Root.is_object() ? Root.find("params") : Root.end();
  if (Params == Root.end() || !Params->is_array())
    throw BenchError(metadataPath + ": has no 'params' array");
  std::vector<TensorAccess> Access;
  for (const nlohmann::json &Param : *Params) {
    if (!Param.is_object() || Param.value("kind", "") != "tensor")
      continue;
    std::string Text = Param.value("access", "readwrite");
    if (Text == "read")
      Access.push_back(TensorAccess::Read);
    else if (Text == "write")
      Access.push_back(TensorAccess::Write);
    else if (Text == "readwrite")
      Access.push_back(TensorAccess::ReadWrite);
    else
      throw BenchError(metadataPath + ": tensor '" + Param.value("name", "?") +
                       "': unknown access '" + Text +
                       "' (read, write or readwrite)");
  }
  if (Access.size() != count)
    throw BenchError(metadataPath + ": lists " + std::to_string(Access.size()) +
                     " tensors, expected " + std::to_string(count));
  return Access;
}

ValidationTensors::ValidationTensors(const tilert::detail::DriverApi &api,
                                     const DeviceTensors &tensors,
                                     std::vector<TensorAccess> access)
    : Api(api), Tensors(tensors), Access(std::move(access)) {
  Initial.resize(Tensors.size());
  for (size_t T = 0; T < Tensors.size(); ++T) {
    if (Access[T] != TensorAccess::ReadWrite || Tensors.bytes(T) == 0)
      continue;
    check(tilert::support::DeviceBuffer::allocate(
        Api, Tensors.bytes(T), "a copy of a read-write tensor", Initial[T]));
    check(checkCu(Api,
                  Api.cuMemcpyDtoD(Initial[T].get(), Tensors.address(T),
                                   Tensors.bytes(T)),
                  "cuMemcpyDtoD"));
  }
}

void ValidationTensors::reset() const {
  for (size_t T = 0; T < Tensors.size(); ++T) {
    if (Tensors.bytes(T) == 0)
      continue;
    if (Access[T] == TensorAccess::Write)
      check(checkCu(Api,
                    Api.cuMemsetD8(Tensors.address(T), 0xff, Tensors.bytes(T)),
                    "cuMemsetD8"));
    else if (Access[T] == TensorAccess::ReadWrite)
      check(checkCu(Api,
                    Api.cuMemcpyDtoD(Tensors.address(T), Initial[T].get(),
                                     Tensors.bytes(T)),
                    "cuMemcpyDtoD"));
  }
  check(checkCu(Api, Api.cuStreamSynchronize(nullptr), "cuStreamSynchronize"));
}

void ValidationTensors::read(TensorContents &Contents) const {
  // Resized, not reallocated: the same sizes every run, so a buffer of
  // hundreds of megabytes is neither zeroed nor page-faulted again.
  Contents.resize(Tensors.size());
  for (size_t T = 0; T < Tensors.size(); ++T) {
    if (Access[T] == TensorAccess::Read)
      continue;
    Contents[T].resize(Tensors.bytes(T));
    if (Tensors.bytes(T))
      check(checkCu(Api,
                    Api.cuMemcpyDtoH(Contents[T].data(), Tensors.address(T),
                                     Tensors.bytes(T)),
                    "cuMemcpyDtoH"));
  }
}

std::string
ValidationTensors::findUnwritten(const std::vector<tilert::TensorParam> &params,
                                 const TensorContents &contents) const {
  for (size_t T = 0; T < params.size(); ++T) {
    if (Access[T] != TensorAccess::Write || !isFloatingPoint(params[T].dtype))
      continue;
    size_t Size = tilert::dtypeSize(params[T].dtype);
    size_t Count = contents[T].size() / Size;
    Partial Left;
    for (size_t I = 0; I < Count; ++I) {
      const char *Element = contents[T].data() + I * Size;
      if (std::all_of(Element, Element + Size,
                      [](char Byte) { return Byte == char(0xff); })) {
        if (!Left.Mismatches)
          Left.FirstMismatch = I;
        ++Left.Mismatches;
      }
    }
    if (Left.Mismatches)
      return "tensor '" + params[T].name + "': " +
             mismatchText(Left, Count,
                          "were not written (they still hold the fill "
                          "written before the run)");
  }
  return "";
}

std::string compareOutputs(const std::vector<tilert::TensorParam> &params,
                           const TensorContents &reference,
                           const TensorContents &output, double tolerance) {
  for (size_t T = 0; T < params.size(); ++T) {
    size_t Size = tilert::dtypeSize(params[T].dtype);
    if (reference[T].size() != output[T].size())
      return "tensor '" + params[T].name + "' was not read back";
    size_t Count = Size ? reference[T].size() / Size : 0;
    std::string Name = "tensor '" + params[T].name + "': ";
    if (!isFloatingPoint(params[T].dtype)) {
      Partial Result =
          compareExactly(Size, reference[T].data(), output[T].data(), Count);
      if (Result.Mismatches)
        return Name + mismatchText(Result, Count, "differ from the reference");
      continue;
    }
    Partial Result = compareFloats(params[T].dtype, reference[T].data(),
                                   output[T].data(), Count);
    if (Result.Mismatches)
      return Name + mismatchText(Result, Count,
                                 "are NaN or infinite in one of the output "
                                 "and the reference but not in the other");
    double Norm = std::sqrt(Result.Reference);
    double Error = std::sqrt(Result.Difference) / (Norm > 0 ? Norm : 1);
    if (!(Error <= tolerance)) {
      char Text[160];
      std::snprintf(Text, sizeof(Text),
                    "relative Frobenius error %.3g > %.3g (||ref|| = %.4g)",
                    Error, tolerance, Norm);
      return Name + Text;
    }
  }
  return "";
}

} // namespace tilebench

//===- RuntimeTests.cpp - libtilert's behaviour on a GPU ------------------===//

#include "RuntimeTests.h"

#include "BinaryImages.h"
#include "DType.h"
#include "FileIO.h"
#include "KernelRun.h"
#include "ScratchDir.h"
#include "Sha256.h"

#include <functional>
#include <thread>

namespace tilert::gputest {

namespace {

using detail::Status;
using nlohmann::json;

/// Elements of the tensors the error-path launches use.
constexpr int64_t N = 1000;

/// A C-API kernel handle, destroyed with the object.
class KernelHandle {
public:
  KernelHandle() = default;
  KernelHandle(const KernelHandle &) = delete;
  KernelHandle &operator=(const KernelHandle &) = delete;
  ~KernelHandle() { tilertKernelDestroy(Handle); }
  tilertKernel *out() { return &Handle; }
  tilertKernel get() const { return Handle; }

private:
  tilertKernel Handle = nullptr;
};

std::string describe(tilertStatus status, const std::string &message) {
  return tilertGetErrorName(status) + (message.empty() ? "" : ": " + message);
}

std::vector<tilertScalar> rawScalars(const KernelRun &run) {
  std::vector<tilertScalar> Raw;
  for (const tilert::Scalar &Scalar : run.scalars())
    Raw.push_back(Scalar.raw());
  return Raw;
}

/// Launches `kernel` with `tensors` and `scalars` and records whether it
/// returned `expected` with `text` in its message while `run`'s outputs kept
/// their poison and its guards their fill (nothing was launched).
void expectLaunch(const GpuContext &gpu, TestReport &report,
                  const std::string &name, tilertKernel kernel,
                  const KernelRun &run, const std::vector<DLTensor> &tensors,
                  const std::vector<tilertScalar> &scalars,
                  tilertStatus expected, const std::string &text) {
  std::vector<const DLTensor *> Arguments;
  for (const DLTensor &Tensor : tensors)
    Arguments.push_back(&Tensor);
  tilertStatus Got = tilertKernelLaunch(
      kernel, Arguments.data(), static_cast<int32_t>(Arguments.size()),
      scalars.data(), static_cast<int32_t>(scalars.size()), gpu.Stream);
  std::string Message = tilertGetLastErrorMessage();
  Status Checked =
      detail::checkCu(*gpu.Api, gpu.Api->cuStreamSynchronize(gpu.Stream),
                      "cuStreamSynchronize");
  bool Untouched = false;
  std::string Changed;
  if (Checked.ok())
    Checked = run.untouched(Untouched, Changed);
  bool Passed = Got == expected && Message.find(text) != std::string::npos &&
                Checked.ok() && Untouched;
  std::string Detail = describe(Got, Message);
  if (!Checked.ok())
    Detail += "; " + Checked.message();
  else
    Detail += Untouched ? " (memory untouched)" : " (BUT " + Changed + ")";
  report.record(name, Passed, Detail,
                {{"expected", tilertGetErrorName(expected)},
                 {"status", tilertGetErrorName(Got)}});
}

/// Records whether loading `path` fails with `expected` and `text`.
void expectLoadFailure(TestReport &report, const std::string &name,
                       const std::string &path, tilertStatus expected,
                       const std::string &text) {
  KernelHandle Kernel;
  tilertStatus Got = tilertKernelLoad(path.c_str(), Kernel.out());
  std::string Message = tilertGetLastErrorMessage();
  report.record(name,
                Got == expected && Message.find(text) != std::string::npos &&
                    !Kernel.get(),
                describe(Got, Message),
                {{"expected", tilertGetErrorName(expected)},
                 {"status", tilertGetErrorName(Got)}});
}

/// The kernel's original artifacts, to write edited copies of.
struct Artifacts {
  json Document;
  std::string Text;
  std::vector<detail::BinaryImage> Images;

  /// The index of the binary of `kind`, or -1.
  int find(detail::BinaryKind kind) const {
    for (size_t I = 0; I < Images.size(); ++I)
      if (Images[I].Kind == kind)
        return static_cast<int>(I);
    return -1;
  }
};

/// Writes a copy of the kernel into subdirectory `name` of `dir`: the
/// metadata as edited by `edit` and, for each binary it then lists, the
/// original bytes (or, for binary `replaced`, `bytes`, with the digest
/// updated). Sets `path` to the JSON's path.
Status writeVariant(const Artifacts &artifacts, const support::ScratchDir &dir,
                    const std::string &name,
                    const std::function<void(json &)> &edit, std::string &path,
                    int replaced = -1, const std::string &bytes = "") {
  json Document = artifacts.Document;
  edit(Document);
  std::string Written;
  for (json &Binary : Document["binaries"]) {
    std::string File = Binary["file"];
    for (size_t I = 0; I < artifacts.Images.size(); ++I) {
      if (artifacts.Document["binaries"][I]["file"] != File)
        continue;
      bool Replace = static_cast<int>(I) == replaced;
      if (Replace)
        Binary["sha256"] = detail::sha256Hex(bytes);
      TILERT_TRY(dir.write(name + "/" + File,
                           Replace ? bytes : artifacts.Images[I].Bytes,
                           Written));
    }
  }
  return dir.write(name + "/kernel.json", Document.dump(2), path);
}

/// Records a failed setup step; returns whether `status` is a success.
bool setupOk(TestReport &report, const std::string &what,
             const Status &status) {
  if (!status.ok())
    report.record(what, false, "setup failed: " + status.message());
  return status.ok();
}

/// Keeps only the binary at `index` in a metadata document.
std::function<void(json &)> keepOnly(const Artifacts &artifacts, int index) {
  json Binary = artifacts.Document["binaries"][index];
  return [Binary](json &Document) {
    Document["binaries"] = json::array({Binary});
  };
}

/// A tensor_map parameter of `tensor` with `box` (one dimension).
json tensorMapParam(const std::string &name, const std::string &tensor, int box,
                    int swizzle, const std::string &fill) {
  return {{"kind", "tensor_map"}, {"name", name},
          {"tensor", tensor},     {"box", json::array({box})},
          {"swizzle", swizzle},   {"l2_promotion", 128},
          {"oob_fill", fill}};
}

/// Runs `vectorAdd` described with two tensor maps its code does not use
/// (the driver reads only the parameters the entry declares): the runtime
/// must encode them with the driver, reuse them on a second launch with the
/// same buffers, and still compute correctly; a tensor breaking TMA's rules
/// must be refused before anything is launched.
void runTensorMapTests(const GpuContext &gpu, const KernelFile &vectorAdd,
                       const Artifacts &original,
                       const support::ScratchDir &dir, const KernelRun &run,
                       uint64_t seed, TestReport &report) {
  if (gpu.CcMajor < 9) {
    report.note("compute capability below 9.0: tensor map tests not run");
    return;
  }
  std::string Path;
  auto AddMaps = [](json &Document) {
    Document["schema"] = "tilec.kernel/1.1";
    // TMA's 16-byte rule, not the parameter's alignment, must refuse A + 4.
    Document["params"][0]["alignment"] = 4;
    Document["params"].push_back(
        tensorMapParam("A_map", Document["params"][0]["name"], 64, 0, "zero"));
    Document["params"].push_back(
        tensorMapParam("B_map", Document["params"][1]["name"], 32, 128, "nan"));
  };
  if (!setupOk(report, "tensor maps",
               writeVariant(original, dir, "maps", AddMaps, Path)))
    return;
  KernelHandle Kernel;
  if (tilertKernelLoad(Path.c_str(), Kernel.out()) != TILERT_SUCCESS) {
    report.record("tensor maps", false,
                  std::string("load failed: ") + tilertGetLastErrorMessage());
    return;
  }
  KernelRun MapRun(gpu, vectorAdd, {1000003}, seed);
  if (!setupOk(report, "tensor maps", MapRun.prepare()))
    return;
  std::vector<DLTensor> Tensors = MapRun.tensors();
  std::vector<const DLTensor *> Arguments;
  for (const DLTensor &Tensor : Tensors)
    Arguments.push_back(&Tensor);
  std::string Failure;
  for (int Launch = 0; Launch < 2 && Failure.empty(); ++Launch) {
    tilertStatus Status = tilertKernelLaunch(
        Kernel.get(), Arguments.data(), static_cast<int32_t>(Arguments.size()),
        nullptr, 0, gpu.Stream);
    if (Status != TILERT_SUCCESS)
      Failure = describe(Status, tilertGetLastErrorMessage());
  }
  Status Synced =
      detail::checkCu(*gpu.Api, gpu.Api->cuStreamSynchronize(gpu.Stream),
                      "cuStreamSynchronize");
  RunResult Result;
  if (Failure.empty() && !Synced.ok())
    Failure = Synced.message();
  if (Failure.empty())
    Result = MapRun.verify();
  report.record("encodes tensor maps and reuses them (two launches, "
                "N=1000003)",
                Failure.empty() && Result.Passed,
                Failure.empty() ? Result.Detail : Failure);

  std::vector<DLTensor> Misaligned = run.tensors();
  Misaligned[0].data = static_cast<char *>(Misaligned[0].data) + 4;
  expectLaunch(gpu, report,
               "rejects a tensor map of a pointer misaligned by 4 bytes",
               Kernel.get(), run, Misaligned, {}, TILERT_ERROR_INVALID_ARGUMENT,
               "is not aligned to 16 bytes as TMA requires (tensor map "
               "'A_map')");
}

/// An architecture the device cannot run as SASS.
std::string foreignArch(const GpuContext &gpu) {
  return gpu.CcMajor == 8 ? "sm_90a" : "sm_80";
}

} // namespace

void runArgumentTests(const GpuContext &gpu, const KernelFile &vectorAdd,
                      const KernelFile *scaleAdd, uint64_t seed,
                      TestReport &report) {
  KernelHandle Kernel;
  if (tilertKernelLoad(vectorAdd.Path.c_str(), Kernel.out()) !=
      TILERT_SUCCESS) {
    report.record("load " + vectorAdd.Path, false, tilertGetLastErrorMessage());
    return;
  }
  KernelRun Run(gpu, vectorAdd, {N}, seed);
  if (!setupOk(report, "argument tests", Run.prepare()))
    return;
  const std::vector<DLTensor> Good = Run.tensors();
  const std::vector<tilertScalar> NoScalars;
  auto Expect = [&](const std::string &Name, std::vector<DLTensor> Tensors,
                    tilertStatus Status, const std::string &Text) {
    expectLaunch(gpu, report, "rejects " + Name, Kernel.get(), Run, Tensors,
                 NoScalars, Status, Text);
  };

  std::vector<DLTensor> T = Good;
  T[1].dtype = detail::toDLDataType(vectorAdd.DType == TILERT_DTYPE_F32
                                        ? TILERT_DTYPE_F16
                                        : TILERT_DTYPE_F32);
  Expect("a tensor of the wrong dtype", T, TILERT_ERROR_INVALID_ARGUMENT,
         "has dtype");

  int64_t Shorter[] = {N - 1};
  T = Good;
  T[1].shape = Shorter;
  Expect("inconsistent N across tensors", T, TILERT_ERROR_INVALID_ARGUMENT,
         "dim '" + vectorAdd.Metadata.Dims[0] + "' is inconsistent");

  T = Good;
  T[0].data = static_cast<char *>(T[0].data) + 2;
  Expect("a pointer misaligned by 2 bytes", T, TILERT_ERROR_INVALID_ARGUMENT,
         "is not aligned to");

  T = Good;
  T[2].byte_offset = 2;
  Expect("a byte_offset of 2", T, TILERT_ERROR_INVALID_ARGUMENT,
         "is not aligned to");

  T = Good;
  T[0].data = nullptr;
  Expect("a NULL data pointer", T, TILERT_ERROR_INVALID_ARGUMENT,
         "NULL data pointer");

  int64_t Strides[] = {2};
  T = Good;
  T[1].strides = Strides;
  Expect("a non-contiguous tensor", T, TILERT_ERROR_INVALID_ARGUMENT,
         "is not contiguous");

  T = Good;
  T.pop_back();
  Expect("a missing tensor", T, TILERT_ERROR_INVALID_ARGUMENT,
         "takes 3 tensors");

  T = Good;
  T[2].device = {kDLCPU, 0};
  Expect("a host tensor", T, TILERT_ERROR_INVALID_ARGUMENT, "not kDLCUDA");

  T = Good;
  for (DLTensor &Tensor : T)
    Tensor.device.device_id = 64;
  Expect("tensors on a device that does not exist", T,
         TILERT_ERROR_INVALID_ARGUMENT, "CUDA device 64 does not exist");

  int64_t Huge[] = {int64_t(1) << 42};
  T = Good;
  for (DLTensor &Tensor : T)
    Tensor.shape = Huge;
  Expect("dims too large for the grid", T, TILERT_ERROR_INVALID_ARGUMENT,
         "too large for this kernel");

  int64_t Empty[] = {0};
  T = Good;
  for (DLTensor &Tensor : T)
    Tensor.shape = Empty;
  expectLaunch(gpu, report, "skips an empty grid (N=0)", Kernel.get(), Run, T,
               NoScalars, TILERT_SUCCESS, "");

  if (!scaleAdd) {
    report.note("no scale_add kernel: scalar argument checks not run");
    return;
  }
  KernelHandle Scaled;
  if (tilertKernelLoad(scaleAdd->Path.c_str(), Scaled.out()) !=
      TILERT_SUCCESS) {
    report.record("load " + scaleAdd->Path, false, tilertGetLastErrorMessage());
    return;
  }
  KernelRun ScaledRun(gpu, *scaleAdd, {N}, seed + 1);
  if (!setupOk(report, "scalar argument tests", ScaledRun.prepare()))
    return;
  std::vector<tilertScalar> Scalars = rawScalars(ScaledRun);
  Scalars[0].dtype = TILERT_DTYPE_F64;
  Scalars[0].value.f64 = 1.5;
  expectLaunch(gpu, report, "rejects an f64 scalar for an f32 one",
               Scaled.get(), ScaledRun, ScaledRun.tensors(), Scalars,
               TILERT_ERROR_INVALID_ARGUMENT, "has dtype f64");
  expectLaunch(gpu, report, "rejects a missing scalar", Scaled.get(), ScaledRun,
               ScaledRun.tensors(), {}, TILERT_ERROR_INVALID_ARGUMENT,
               "takes 1 scalars");
}

void runArtifactTests(const GpuContext &gpu, const KernelFile &vectorAdd,
                      uint64_t seed, TestReport &report) {
  Artifacts Original;
  Status Read = detail::readFile(vectorAdd.Path, Original.Text);
  if (Read.ok())
    Read = detail::loadBinaryImages(vectorAdd.Metadata, Original.Images);
  support::ScratchDir Dir;
  if (Read.ok())
    Read = Dir.create();
  if (!setupOk(report, "artifact tests", Read))
    return;
  Original.Document = json::parse(Original.Text);
  int Cubin = Original.find(detail::BinaryKind::Cubin);
  int Ptx = Original.find(detail::BinaryKind::Ptx);
  KernelRun Run(gpu, vectorAdd, {N}, seed);
  if (!setupOk(report, "artifact tests", Run.prepare()))
    return;
  std::vector<tilertScalar> NoScalars;

  std::string Path;
  if (setupOk(report, "corrupt metadata",
              Dir.write("corrupt.json",
                        "{\"schema\": \"tilec.kernel/1\", name: }", Path)))
    expectLoadFailure(report, "rejects corrupt metadata JSON", Path,
                      TILERT_ERROR_METADATA, "corrupt JSON");
  if (setupOk(report, "truncated metadata",
              Dir.write("truncated.json",
                        Original.Text.substr(0, Original.Text.size() / 2),
                        Path)))
    expectLoadFailure(report, "rejects truncated metadata JSON", Path,
                      TILERT_ERROR_METADATA, "truncated JSON");
  if (setupOk(report, "missing binaries",
              Dir.write("missing/kernel.json", Original.Text, Path)))
    expectLoadFailure(report, "rejects metadata whose binaries are missing",
                      Path, TILERT_ERROR_IO, "No such file");

  // Launches that must be refused by a kernel loaded from `Path`.
  auto ExpectLaunch = [&](const std::string &Name, tilertStatus Status,
                          const std::string &Text) {
    KernelHandle Kernel;
    if (tilertKernelLoad(Path.c_str(), Kernel.out()) != TILERT_SUCCESS) {
      report.record(Name, false,
                    std::string("load failed: ") + tilertGetLastErrorMessage());
      return;
    }
    expectLaunch(gpu, report, Name, Kernel.get(), Run, Run.tensors(), NoScalars,
                 Status, Text);
  };

  if (Cubin < 0) {
    report.note("the kernel has no cubin: cubin artifact tests not run");
  } else {
    std::string Tampered = Original.Images[Cubin].Bytes;
    Tampered[Tampered.size() / 2] ^= 0x5a;
    std::string CubinFile = Original.Document["binaries"][Cubin]["file"];
    std::string Ignored;
    if (setupOk(report, "tampered cubin",
                writeVariant(
                    Original, Dir, "tampered", [](json &) {}, Path)) &&
        setupOk(report, "tampered cubin",
                Dir.write("tampered/" + CubinFile, Tampered, Ignored)))
      expectLoadFailure(report, "rejects a cubin whose sha256 differs", Path,
                        TILERT_ERROR_CHECKSUM, "sha256");

    // The cubin alone, described as built for an architecture this device
    // cannot run: refused before anything is loaded.
    std::string Arch = foreignArch(gpu);
    auto OnlyCubin = keepOnly(Original, Cubin);
    if (setupOk(report, "foreign arch",
                writeVariant(
                    Original, Dir, "arch",
                    [&](json &Document) {
                      OnlyCubin(Document);
                      Document["arch"] = Arch;
                    },
                    Path)))
      ExpectLaunch(detail::strCat("rejects a cubin for ", Arch,
                                  " on compute capability ", gpu.CcMajor, ".",
                                  gpu.CcMinor),
                   TILERT_ERROR_ARCH_MISMATCH, "cannot run on");

    if (setupOk(report, "missing entry",
                writeVariant(
                    Original, Dir, "entry",
                    [&](json &Document) {
                      OnlyCubin(Document);
                      Document["entry"] = "no_such_entry";
                    },
                    Path)))
      ExpectLaunch("rejects an entry the cubin lacks", TILERT_ERROR_METADATA,
                   "'no_such_entry' is not in");
  }

  runTensorMapTests(gpu, vectorAdd, Original, Dir, Run, seed, report);

  if (Ptx < 0) {
    report.note("the kernel ships no PTX: JIT tests not run");
    return;
  }
  if (setupOk(
          report, "PTX only",
          writeVariant(Original, Dir, "ptx", keepOnly(Original, Ptx), Path))) {
    try {
      tilert::Kernel FromPtx(Path);
      RunResult Result = runKernel(gpu, FromPtx, vectorAdd, {1000003}, seed);
      report.record("runs from PTX through the driver JIT (N=1000003)",
                    Result.Passed, Result.Detail);
    } catch (const tilert::Error &Error) {
      report.record("runs from PTX through the driver JIT", false,
                    Error.what());
    }
  }

  std::string Broken = Original.Images[Ptx].Bytes;
  size_t Entry = Broken.find(".entry");
  Broken.insert(Entry == std::string::npos ? Broken.size() : Entry,
                "this is not PTX;\n");
  if (setupOk(report, "invalid PTX",
              writeVariant(Original, Dir, "badptx", keepOnly(Original, Ptx),
                           Path, Ptx, Broken)))
    ExpectLaunch("reports the JIT log of invalid PTX", TILERT_ERROR_JIT,
                 "JIT compilation of");
}

void runConcurrentLaunchTest(const GpuContext &gpu, const KernelFile &kernel,
                             uint64_t seed, TestReport &report) {
  constexpr int Threads = 8;
  std::unique_ptr<tilert::Kernel> Fresh;
  try {
    Fresh = std::make_unique<tilert::Kernel>(kernel.Path);
  } catch (const tilert::Error &Error) {
    report.record("concurrent first launches", false, Error.what());
    return;
  }
  std::vector<RunResult> Results(Threads);
  std::vector<std::thread> Pool;
  for (int I = 0; I < Threads; ++I) {
    Pool.emplace_back([&, I] {
      GpuContext Local = gpu;
      Status Ready = detail::checkCu(
          *gpu.Api, gpu.Api->cuCtxSetCurrent(gpu.Context), "cuCtxSetCurrent");
      if (Ready.ok())
        Ready = detail::checkCu(
            *gpu.Api,
            gpu.Api->cuStreamCreate(&Local.Stream, CU_STREAM_NON_BLOCKING),
            "cuStreamCreate");
      if (!Ready.ok()) {
        Results[I].Detail = Ready.message();
        return;
      }
      Results[I] = runKernel(Local, *Fresh, kernel, {4097 + I}, seed + I);
      gpu.Api->cuStreamDestroy(Local.Stream);
    });
  }
  for (std::thread &Thread : Pool)
    Thread.join();
  std::string Failures;
  for (int I = 0; I < Threads; ++I)
    if (!Results[I].Passed)
      Failures += detail::strCat("thread ", I, ": ", Results[I].Detail, "; ");
  report.record(detail::strCat("concurrent first launches of ",
                               kernel.Metadata.Name, " from ", Threads,
                               " threads"),
                Failures.empty(), Failures);
}

} // namespace tilert::gputest

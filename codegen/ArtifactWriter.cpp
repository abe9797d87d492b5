//===- ArtifactWriter.cpp - Writing a kernel's files ----------------------===//

#include "codegen/ArtifactWriter.h"

#include "codegen/CudaToolkit.h"
#include "codegen/Metadata.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <vector>

using namespace mlir;
using namespace tilec;

std::vector<FatbinImage>
tilec::planFatbinImages(llvm::ArrayRef<GpuTarget> targets,
                        std::vector<size_t> &buildIndex) {
  std::vector<FatbinImage> images;
  buildIndex.clear();
  std::optional<size_t> portable;
  for (size_t i = 0; i < targets.size(); ++i) {
    images.push_back({/*isCubin=*/true, targets[i].fatbinSm(), ""});
    buildIndex.push_back(i);
    if (!targets[i].archSpecific &&
        (!portable || targets[i].smVersion > targets[*portable].smVersion))
      portable = i;
  }
  if (portable) {
    images.push_back({/*isCubin=*/false, targets[*portable].fatbinSm(), ""});
    buildIndex.push_back(*portable);
  }
  return images;
}

namespace {
/// The fatbin of every build (planFatbinImages).
llvm::Expected<std::string> packFatbin(llvm::ArrayRef<KernelArtifacts> builds,
                                       const ArtifactOptions &options) {
  llvm::Expected<std::string> fatbinary =
      findCudaTool("fatbinary", options.fatbinaryPath, options.cudaPath);
  if (!fatbinary)
    return fatbinary.takeError();
  std::vector<GpuTarget> targets;
  for (const KernelArtifacts &build : builds)
    targets.push_back(build.target);
  std::vector<size_t> buildIndex;
  std::vector<FatbinImage> images = planFatbinImages(targets, buildIndex);
  for (size_t i = 0; i < images.size(); ++i) {
    const KernelArtifacts &build = builds[buildIndex[i]];
    images[i].bytes = images[i].isCubin ? build.cubin : build.ptx;
  }
  return runFatbinary(*fatbinary, images);
}
} // namespace

FailureOr<std::vector<ArtifactFile>>
tilec::renderKernelArtifacts(Location loc,
                             llvm::ArrayRef<KernelArtifacts> builds,
                             const ArtifactOptions &options) {
  const EmitStages &stages = options.stages;
  std::vector<ArtifactFile> files;
  if (builds.empty())
    return files;
  if (stages.json && !stages.cubin && !stages.ptx && !stages.fatbin)
    return emitError(loc) << "the metadata (json) needs a binary to describe: "
                             "emit cubin, ptx or fatbin with it";
  if (stages.needsCubin())
    for (const KernelArtifacts &build : builds)
      if (build.cubin.empty())
        return emitError(loc)
               << "no cubin was produced for " << build.target.arch;

  const std::string &kernel =
      options.fileStem.empty() ? builds.front().kernelName : options.fileStem;
  std::string fatbinName = kernel + ".fatbin";
  std::string fatbin;
  if (stages.fatbin) {
    llvm::Expected<std::string> packed = packFatbin(builds, options);
    if (!packed)
      return emitError(loc) << llvm::toString(packed.takeError());
    fatbin = std::move(*packed);
    files.push_back({fatbinName, fatbin});
  }

  for (const KernelArtifacts &build : builds) {
    std::string stem = kernel + "." + build.target.arch;
    std::vector<BinaryFile> binaries;
    if (stages.tileGPU)
      files.push_back({stem + ".tile-gpu.mlir", build.tileGPU});
    if (stages.llvm)
      files.push_back({stem + ".ll", build.llvmIR});
    if (stages.cubin) {
      files.push_back({stem + ".cubin", build.cubin});
      binaries.push_back({"cubin", stem + ".cubin", build.cubin});
    }
    if (stages.ptx) {
      files.push_back({stem + ".ptx", build.ptx});
      binaries.push_back({"ptx", stem + ".ptx", build.ptx});
    }
    if (stages.fatbin)
      binaries.push_back({"fatbin", fatbinName, fatbin});
    if (stages.json) {
      nlohmann::ordered_json metadata = build.metadata;
      if (!options.listBinaries)
        binaries.clear();
      setBinaries(metadata, binaries);
      files.push_back({stem + ".json", metadata.dump(2) + "\n"});
    }
  }
  return files;
}

llvm::Error tilec::writeArtifactFiles(llvm::StringRef dir,
                                      llvm::ArrayRef<ArtifactFile> files) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec, "cannot create '" + dir.str() +
                                           "': " + ec.message());
  std::vector<std::string> temporaries, finals;
  auto removeAll = [](llvm::ArrayRef<std::string> paths) {
    for (const std::string &path : paths)
      llvm::sys::fs::remove(path);
  };
  for (const ArtifactFile &file : files) {
    llvm::SmallString<256> final(dir);
    llvm::sys::path::append(final, file.name);
    int fd;
    llvm::SmallString<256> temporary;
    std::error_code ec =
        llvm::sys::fs::createUniqueFile(final + ".tmp-%%%%%%", fd, temporary);
    if (!ec) {
      llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
      os << file.contents;
      os.close();
      ec = os.error();
      os.clear_error();
      temporaries.push_back(std::string(temporary));
    }
    if (ec) {
      removeAll(temporaries);
      return llvm::createStringError(ec, "cannot write '" + std::string(final) +
                                             "': " + ec.message());
    }
    finals.push_back(std::string(final));
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (std::error_code ec = llvm::sys::fs::rename(temporaries[i], finals[i])) {
      removeAll(llvm::ArrayRef(finals).take_front(i));
      removeAll(llvm::ArrayRef(temporaries).drop_front(i));
      return llvm::createStringError(ec, "cannot write '" + finals[i] +
                                             "': " + ec.message());
    }
  }
  return llvm::Error::success();
}

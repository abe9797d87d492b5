//===- tile-host-run.cpp - Runs a tile kernel's generated code on the host ===//
//
// tile-host-run FILE.tile [--kernel NAME] [-D NAME=VALUE]... --dim NAME=N...
//               [--scalar NAME=VALUE]... [--input TENSOR=FILE]... [--seed S]
//               [-o DIR] [--arch ARCH] [--blocks N] [--thread-order ORDER]
//               [--fast-math] [--emit-llvm]
//
// Compiles one kernel as tilec does, up to its LLVM IR, turns that into host
// code (HostLowering.h), JIT-compiles it and runs every thread of the grid
// on the CPU, block after block, the threads of a block as fibers that wait
// for each other at barriers and warp shuffles (BlockScheduler.h), checking
// every global access against the tensors. With -o, the tensors before and
// after the run and a description of the run (run.json) are written to DIR, for
// a reference implementation to compare with (test/codegen/host/). This checks
// the semantics of the generated code on machines without a GPU. Exit status: 0
// if the kernel ran and every access was valid, 1 otherwise.
//
//===----------------------------------------------------------------------===//

#include "AccessChecker.h"
#include "HostArguments.h"
#include "HostExecutor.h"
#include "HostLowering.h"
#include "TileSource.h"

#include "codegen/GpuTarget.h"
#include "codegen/Metadata.h"
#include "codegen/Sha256.h"

#include <CLI/CLI.hpp>

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilehost;

namespace {

/// The command line.
struct Options {
  std::string path;
  std::optional<std::string> kernel;
  std::vector<std::string> defines;
  ArgumentRequest arguments;
  std::string outputDir;
  bool emitLLVM = false;
  bool fastMath = false;
  std::string arch = "sm_90a";
  std::string threadOrder = "forward";
};

/// Reports `message` as an error and returns the exit status 1.
int fail(const llvm::Twine &message) {
  llvm::errs() << "tile-host-run: error: " << message << "\n";
  return 1;
}

/// Runs the tool; returns the exit status.
int run(const Options &options) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  std::unique_ptr<TileSource> source = TileSource::load(
      options.path, options.kernel, options.defines, context, llvm::errs());
  if (!source)
    return 1;
  mlir::tile::KernelOp kernel = source->getKernel();
  std::string name = kernel.getSymName().str();

  llvm::Expected<tilec::GpuTarget> target =
      tilec::resolveGpuTarget(options.arch, /*ptxVersion=*/0);
  if (!target)
    return fail(llvm::toString(target.takeError()));

  llvm::Expected<std::unique_ptr<HostExecutor>> executor =
      HostExecutor::create();
  if (!executor)
    return fail("cannot set up the JIT: " +
                llvm::toString(executor.takeError()));
  std::optional<ThreadOrder> order =
      llvm::StringSwitch<std::optional<ThreadOrder>>(options.threadOrder)
          .Case("forward", ThreadOrder::Forward)
          .Case("reverse", ThreadOrder::Reverse)
          .Case("shuffled", ThreadOrder::Shuffled)
          .Default(std::nullopt);
  if (!order)
    return fail("--thread-order " + options.threadOrder +
                ": expected forward, reverse or shuffled");
  (*executor)->setThreadOrder(*order, options.arguments.seed);
  auto llvmContext = std::make_unique<llvm::LLVMContext>();
  mlir::FailureOr<HostModule> host = lowerKernelForHost(
      kernel, *llvmContext, (*executor)->getDataLayout(),
      (*executor)->getTargetTriple(), *target,
      {source->getPath().str(), tilec::sha256Hex(source->getContents())},
      options.fastMath);
  if (mlir::failed(host))
    return 1;
  if (options.emitLLVM) {
    llvm::outs() << *host->module;
    return 0;
  }

  llvm::Expected<HostArguments> arguments =
      HostArguments::create(host->metadata, options.arguments);
  if (!arguments)
    return fail(llvm::toString(arguments.takeError()));
  bool write = !options.outputDir.empty();
  if (write)
    if (llvm::Error error =
            arguments->writeTensors(options.outputDir, "in.bin"))
      return fail(llvm::toString(std::move(error)));
  llvm::Expected<std::unique_ptr<AccessChecker>> checker =
      (*executor)->run(std::move(*host), std::move(llvmContext), *arguments);
  if (!checker)
    return fail("cannot run kernel '" + name +
                "': " + llvm::toString(checker.takeError()));
  if (write) {
    if (llvm::Error error =
            arguments->writeTensors(options.outputDir, "out.bin"))
      return fail(llvm::toString(std::move(error)));
    if (llvm::Error error =
            arguments->writeDescription(options.outputDir, "in.bin", "out.bin"))
      return fail(llvm::toString(std::move(error)));
  }

  const std::array<uint32_t, 3> &grid = arguments->getGrid();
  uint64_t threads =
      uint64_t(grid[0]) * grid[1] * grid[2] * arguments->getThreads();
  if ((*checker)->getNumInvalid()) {
    llvm::errs() << "tile-host-run: error: kernel '" << name << "' made "
                 << (*checker)->getNumInvalid()
                 << " invalid global memory accesses:\n";
    (*checker)->print(llvm::errs());
    return 1;
  }
  llvm::outs() << name << ": ran " << threads << " threads (grid " << grid[0]
               << " x " << grid[1] << " x " << grid[2] << ", "
               << arguments->getThreads() << " threads per block); "
               << (*checker)->getNumChecked()
               << " global accesses, all in bounds and aligned\n";
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app("tile-host-run: runs the code tilec generates for a kernel on "
               "the host, the threads of a block as fibers, and checks its "
               "global memory accesses");
  Options options;
  app.add_option("file", options.path,
                 "The .tile source file ('-' reads "
                 "standard input)")
      ->required();
  app.add_option("--kernel", options.kernel,
                 "The kernel to run (needed if the file has several)");
  app.add_option("-D,--define", options.defines,
                 "Override a compile-time parameter: -D NAME=VALUE")
      ->allow_extra_args(false);
  app.add_option("--dim", options.arguments.dims,
                 "The value of a symbolic dim: --dim NAME=VALUE (each is "
                 "required)")
      ->allow_extra_args(false);
  app.add_option("--scalar", options.arguments.scalars,
                 "The value of a scalar parameter: --scalar NAME=VALUE (each "
                 "is required)")
      ->allow_extra_args(false);
  app.add_option("--input", options.arguments.inputs,
                 "Read a tensor from a raw binary file: --input NAME=FILE "
                 "(other tensors get pseudo-random contents)")
      ->allow_extra_args(false);
  app.add_option("--seed", options.arguments.seed,
                 "Seed of the pseudo-random tensor contents (default 1)");
  app.add_option("-o,--output-dir", options.outputDir,
                 "Write NAME.in.bin and NAME.out.bin for every tensor and "
                 "run.json to DIR");
  app.add_option("--blocks", options.arguments.persistentBlocks,
                 "For a persistent kernel: start this many blocks (at most "
                 "one per tile), each looping over its tiles, as the runtime "
                 "starts as many as fit the GPU");
  app.add_option("--thread-order", options.threadOrder,
                 "The order in which a block's threads run until they wait: "
                 "forward (default), reverse or shuffled (drawn from --seed); "
                 "each is a schedule the GPU may take");
  app.add_option("--arch", options.arch,
                 "The architecture to generate code for, as tilec --arch "
                 "(default sm_90a; sm_80 for the mma.sync path)");
  app.add_flag("--fast-math", options.fastMath,
               "Lower as 'tilec --fast-math' does (the host computes the "
               "approximations exactly)");
  app.add_flag("--emit-llvm", options.emitLLVM,
               "Print the host LLVM IR of the kernel instead of running it");
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success &info) {
    return app.exit(info);
  } catch (const CLI::ParseError &error) {
    llvm::errs() << "tile-host-run: error: " << error.what()
                 << "\nRun 'tile-host-run --help' for usage.\n";
    return 1;
  }
  return run(options);
}

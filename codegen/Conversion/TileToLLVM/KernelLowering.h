//===- KernelLowering.h - One tile kernel to an NVVM function ---*- C++ -*-===//
//
// The state and shared helpers of `convert-tile-to-llvm` (see Passes.td).
// The lowering walks a kernel body once and emits per-thread code directly:
//
// * Code outside `tile.parallel` runs in every thread ("uniform" code).
// * A `tile.parallel` loop with layout `#tile.flat<vec = W>` runs in steps;
//   in each step a thread handles W consecutive flat elements ("lanes"). The
//   body is emitted once per lane, op by op (Parallel.cpp).
// * Each tile op is emitted by the lowering the registry (Lowerings.h) has
//   for its kind; other ops (arith, math) are cloned with the lane's values.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CODEGEN_CONVERSION_TILETOLLVM_KERNELLOWERING_H
#define TILEC_CODEGEN_CONVERSION_TILETOLLVM_KERNELLOWERING_H

#include "codegen/Conversion/TileToLLVM/Lowerings.h"

#include "dialects/Tile/TileOps.h"
#include "passes/Analysis/TensorMaps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"

namespace tilec {

/// Address space of global memory in NVVM.
constexpr unsigned kGlobalAddressSpace = 1;
/// Address space of shared memory in NVVM.
constexpr unsigned kSharedAddressSpace = 3;

/// A global tensor argument.
struct Tensor {
  /// `!llvm.ptr<1>` to element [0, ..., 0].
  mlir::Value base;
  mlir::Type elementType;
  /// How an element is stored (`i1` as `i8`).
  mlir::Type storageType;
  /// The extent of every dim, as `index` values.
  llvm::SmallVector<mlir::Value> dims;
};

/// The per-thread storage of a fragment, local array or variable.
struct PrivateBuffer {
  /// `!llvm.ptr` to the thread's elements.
  mlir::Value base;
  mlir::Type elementType;
  mlir::Type storageType;
  /// Elements per thread.
  int64_t size = 0;
  /// The layout of a fragment (register `r` of the storage holds the element
  /// the layout maps register `r` to); null for local buffers.
  mlir::tile::DistributedLayoutAttrInterface fragmentLayout;
};

/// A shared tile: its place in the kernel's dynamic shared-memory arena
/// (`tile-allocate-shared-memory` chose its offset).
struct SharedBuffer {
  /// `!llvm.ptr<3>` to the tile's first byte: the arena plus the tile's
  /// offset.
  mlir::Value base;
  mlir::Type elementType;
  mlir::Type storageType;
  /// The tile's static shape.
  llvm::SmallVector<int64_t> shape;
  /// The layout attribute of the tile's `!tile.buffer` type; null for
  /// row-major.
  mlir::Attribute layout;
};

/// What one lane of a parallel step (or a thread outside parallel loops)
/// sees: the values of the kernel's SSA values, and, inside parallel loops,
/// the index of the lane's element in the thread's fragment storage.
struct Lane {
  mlir::IRMapping map;
  mlir::Value fragmentIndex;
  /// If set, the lane's stores to global and shared memory happen only where
  /// it is true: in a loop that every thread runs whole (`#tile.replicated`),
  /// one thread stores each element.
  mlir::Value storingThread;
};

/// How an element of `elementType` is stored (`i1` as `i8`).
mlir::Type storageTypeOf(mlir::Type elementType);

/// Lowers one `tile.kernel` into an `llvm.func` inserted before it.
class KernelLowering {
public:
  KernelLowering(mlir::tile::KernelOp kernel, const LoweringSet &lowerings);

  /// Emits the function and erases the kernel.
  mlir::LogicalResult run();
  /// What the emitted code costs (see kMaxKernelCost).
  int64_t getCost() const { return counter.cost; }

  //===--- For the lowerings ----------------------------------------------===//
  /// The builder, at the point where the current op's code goes.
  mlir::OpBuilder &getBuilder() { return builder; }
  /// The kernel being lowered.
  mlir::tile::KernelOp getKernel() { return kernel; }
  /// The launch's threads per block (in a warp-specialized launch, the
  /// threads of a consumer group: the producer threads come after the
  /// groups).
  int64_t getThreads() const { return threads; }
  /// The consumer threads of a warp-specialized launch (getThreads() per
  /// consumer group), else getThreads().
  int64_t getConsumerThreads() const { return threads * consumerGroups; }
  /// The threads a block really has: the consumer threads plus the producer
  /// threads of a warp-specialized launch.
  int64_t getBlockThreads() const {
    return getConsumerThreads() + producerThreads;
  }
  /// True if the launch is warp-specialized (`tile.warp_specialize`): the
  /// block's barriers are then among its consumer threads only.
  bool isWarpSpecialized() const { return producerThreads != 0; }
  /// How the roles of a warp-specialized launch share the register file
  /// (`setmaxnreg`), for `blocksPerMultiprocessor` resident blocks.
  struct RegisterSplit {
    int32_t blocksPerMultiprocessor;
    int32_t producerRegisters;
    int32_t consumerRegisters;
  };
  /// The split of a warp-specialized launch, or std::nullopt if its roles
  /// keep the registers they start with: the producer warpgroup keeps 40
  /// registers per thread and the consumers share the rest of the block's
  /// registers (232 for two consumer warpgroups, 152 for three, 104 for
  /// four, one block per multiprocessor); a single consumer warpgroup takes
  /// 216 where shared memory has room for two blocks per multiprocessor and
  /// no wgmma is wider than 128 columns (ptxas fits each instruction in the
  /// 128 registers at entry), and otherwise keeps the 255 it starts with.
  std::optional<RegisterSplit> getRegisterSplit() const;
  /// The `CUtensorMap` parameter (a pointer into the parameter space) that
  /// the TMA copy `copy` reads through; null if none.
  mlir::Value findTensorMap(mlir::tile::CopyOp copy) const;
  /// True if a GEMM of the kernel runs on wgmma (a warpgroup accumulator).
  bool usesWgmma() const { return wgmma; }
  /// The thread's index in its block, as an `index` (in the consumer region
  /// of a launch with consumer groups, its index in its group).
  mlir::Value getThreadIndex() const { return threadIndex; }
  /// The consumer group of the thread, as an `index`: null outside the
  /// consumer region of a launch with consumer groups.
  mlir::Value getConsumerGroup() const { return consumerGroup; }
  /// Runs `body` in the thread's consumer group: getConsumerGroup() is
  /// tid / T and getThreadIndex() tid % T (T = getThreads()).
  mlir::LogicalResult
  asConsumerGroup(mlir::Location loc,
                  llvm::function_ref<mlir::LogicalResult()> body);
  /// Runs `body` with getThreadIndex() replaced by a fresh read of the
  /// thread index that LLVM cannot move (a volatile `mov %tid.x`, masked to
  /// the block's range): the per-thread values `body` derives from it (the
  /// addresses of a TMA store's staging writes, say) are computed where
  /// they are used instead of being hoisted out of the enclosing loops and
  /// kept in registers through them.
  mlir::LogicalResult
  withPinnedThreadIndex(mlir::Location loc,
                        llvm::function_ref<mlir::LogicalResult()> body);
  /// Emits a read of the block's index (`ctaid`) in grid dimension `dim`
  /// (0: x, 1: y, 2: z), as an `index` with CUDA's range for it.
  mlir::Value emitBlockIndex(mlir::Location loc, unsigned dim);
  /// Emits a read of the grid's extent (`nctaid`) in dimension `dim`.
  mlir::Value emitGridExtent(mlir::Location loc, unsigned dim);
  /// Emits a read of the index of the block's thread-block cluster
  /// (`%clusterid`) in dimension `dim`, as an `index`.
  mlir::Value emitClusterIndex(mlir::Location loc, unsigned dim);
  /// Emits a read of the clusters launched (`%nclusterid`) in dimension
  /// `dim`, as an `index`.
  mlir::Value emitClusterCount(mlir::Location loc, unsigned dim);
  /// Emits the block's rank in its cluster (`%cluster_ctarank`), an `index`.
  mlir::Value emitClusterRank(mlir::Location loc);
  /// The row and column, in the warp grid of `tiling`, of the thread's warp
  /// (MmaTiling::warpRow and warpColumn, as `index` values).
  std::pair<mlir::Value, mlir::Value>
  warpGridPosition(mlir::Location loc, const mlir::tile::MmaTiling &tiling);
  /// The global tensor `buffer` is, or null.
  const Tensor *findTensor(mlir::Value buffer) const;
  /// The per-thread storage of `buffer`, or null.
  const PrivateBuffer *findPrivate(mlir::Value buffer) const;
  /// The shared tile `buffer` is, or null.
  const SharedBuffer *findShared(mlir::Value buffer) const;
  /// Makes `buffer` the shared tile `value` is (a view of another tile).
  void bindShared(mlir::Value value, SharedBuffer buffer) {
    shareds[value] = std::move(buffer);
  }

  /// Emits the ops of `block` (but its terminator) for `lane`.
  mlir::LogicalResult emitBlock(mlir::Block &block, Lane &lane);
  /// Emits `op` for `lane` through its lowering, or clones it.
  mlir::LogicalResult emitOp(mlir::Operation &op, Lane &lane);
  /// Reports that the kernel is too large, at the outermost loop that
  /// repeats `op`.
  mlir::LogicalResult reportTooLarge(mlir::Operation &op);
  /// Returns `value` for `lane`, cloning the pure ops that compute it from
  /// mapped values if needed.
  mlir::Value materialize(mlir::Value value, Lane &lane);
  /// Emits `body` where `condition` holds (unconditionally for a null
  /// condition), leaving the builder after it.
  void emitGuarded(mlir::Location loc, mlir::Value condition,
                   llvm::function_ref<void()> body);
  /// Returns the lane's values of `values`.
  llvm::SmallVector<mlir::Value> lookup(Lane &lane, mlir::ValueRange values);

  //===--- Memory helpers (Memory.cpp) ------------------------------------===//
  mlir::Value indexConstant(mlir::Location loc, int64_t value);
  mlir::Value zeroOf(mlir::Location loc, mlir::Type type);
  /// Converts a value to its stored form (`i1` to `i8`).
  mlir::Value toStorage(mlir::Location loc, mlir::Value value);
  /// Converts a stored value back to `elementType`.
  mlir::Value fromStorage(mlir::Location loc, mlir::Value stored,
                          mlir::Type elementType);
  /// The row-major element offset of `indices` in a tile of static `shape`
  /// (0 without indices).
  mlir::Value rowMajorOffset(mlir::Location loc,
                             llvm::ArrayRef<mlir::Value> indices,
                             llvm::ArrayRef<int64_t> shape);
  /// The indices of the element at row-major offset `offset` in a tile of
  /// static `shape` (the inverse of rowMajorOffset).
  llvm::SmallVector<mlir::Value> rowMajorIndices(mlir::Location loc,
                                                 mlir::Value offset,
                                                 llvm::ArrayRef<int64_t> shape);
  /// The address of element `indices` of `tensor` (row-major).
  mlir::Value elementPointer(mlir::Location loc, const Tensor &tensor,
                             llvm::ArrayRef<mlir::Value> indices);
  /// True if `indices` (the last one plus `lastIndexExtra`) lie in `tensor`.
  mlir::Value inBounds(mlir::Location loc, const Tensor &tensor,
                       llvm::ArrayRef<mlir::Value> indices,
                       int64_t lastIndexExtra = 0);
  /// True if `indices` (the last one plus `lastIndexExtra`) lie below
  /// `extents`, one per index (unsigned: negative indices do not).
  mlir::Value inBounds(mlir::Location loc, llvm::ArrayRef<mlir::Value> indices,
                       llvm::ArrayRef<mlir::Value> extents,
                       int64_t lastIndexExtra = 0);
  /// True if the region of `shape` (the tensor's trailing dims) at `origin`
  /// lies wholly inside `tensor` (unsigned: a negative origin does not).
  mlir::Value regionInside(mlir::Location loc, const Tensor &tensor,
                           llvm::ArrayRef<mlir::Value> origin,
                           llvm::ArrayRef<int64_t> shape);
  /// True if the rows of `tensor` and the innermost index of `origin` (a
  /// region's first column) are multiples of `chunk` elements: then every
  /// chunk of the region's rows starting at a multiple of `chunk` is
  /// aligned to its size and lies wholly inside or wholly outside the
  /// tensor.
  mlir::Value chunksAligned(mlir::Location loc, const Tensor &tensor,
                            llvm::ArrayRef<mlir::Value> origin, int64_t chunk);
  /// The address of element `indices` of the per-thread buffer `buffer`
  /// accessed by `access` in `lane`.
  mlir::FailureOr<mlir::Value>
  privatePointer(mlir::Operation *access, mlir::Value buffer,
                 llvm::ArrayRef<mlir::Value> indices, Lane &lane);

  /// Loads register `reg` of the thread's storage of `fragment`.
  mlir::Value loadFragmentRegister(mlir::Location loc,
                                   const PrivateBuffer &fragment, int64_t reg);
  /// Stores `value` into register `reg` of the thread's storage of
  /// `fragment`.
  void storeFragmentRegister(mlir::Location loc, const PrivateBuffer &fragment,
                             int64_t reg, mlir::Value value);

  //===--- Shared memory (SharedMemory.cpp) ------------------------------===//
  /// The address of element `indices` of the shared tile `buffer`: the one
  /// place that maps a tile's indices to its bytes (row-major today).
  mlir::Value sharedElementPointer(mlir::Location loc,
                                   const SharedBuffer &buffer,
                                   llvm::ArrayRef<mlir::Value> indices);
  /// Emits `load` of the shared tile `buffer` for `lane`.
  mlir::LogicalResult loadShared(mlir::tile::LoadOp load,
                                 const SharedBuffer &buffer, Lane &lane);
  /// Emits `store` to the shared tile `buffer` for `lane`.
  mlir::LogicalResult storeShared(mlir::tile::StoreOp store,
                                  const SharedBuffer &buffer, Lane &lane);
  /// Sets every element of the shared tile `buffer` to `value` (zero if
  /// null) for the fill or clear `op`: the block's threads share the
  /// elements, then wait for each other.
  mlir::LogicalResult fillShared(mlir::Operation *op,
                                 const SharedBuffer &buffer, mlir::Value value,
                                 Lane &lane);
  /// Emits a barrier of the block's threads (`bar.sync 0`), which also
  /// makes their earlier shared-memory writes visible to each other; in a
  /// kernel whose tensor cores read shared memory through the async proxy
  /// (wgmma), preceded by `fence.proxy.async.shared::cta`, so that the
  /// writes are visible to that proxy too. In a warp-specialized launch,
  /// the barrier is among the threads of the consumer group
  /// (`bar.sync 1 + g, T`).
  void emitBarrier(mlir::Location loc);

private:
  /// Adds up the cost of the ops a builder creates.
  struct CostCounter : public mlir::OpBuilder::Listener {
    void
    notifyOperationInserted(mlir::Operation *op,
                            mlir::OpBuilder::InsertPoint previous) override;
    int64_t cost = 0;
  };

  mlir::LLVM::LLVMFuncOp createFunction();
  mlir::LogicalResult bindArguments(mlir::Block *entry, Lane &top);
  mlir::LogicalResult allocatePrivateBuffers();
  mlir::LogicalResult allocateSharedBuffers(mlir::LLVM::LLVMFuncOp func);
  /// The index in its consumer group of the thread of block index `tid`.
  mlir::Value groupThreadIndex(mlir::Location loc, mlir::Value tid);
  void bindThreadAndBlockIndices(mlir::tile::LaunchOp launch, Lane &top);

  mlir::tile::KernelOp kernel;
  const LoweringSet &lowerings;
  /// True if a GEMM of the kernel runs on wgmma, which reads shared tiles
  /// through the async proxy.
  bool wgmma = false;
  /// The producer threads of a warp-specialized launch, else 0.
  int64_t producerThreads = 0;
  /// The consumer groups of a warp-specialized launch, else 1.
  int64_t consumerGroups = 1;
  /// The kernel's tensor map parameters and their function arguments.
  llvm::SmallVector<TensorMapParam> tensorMaps;
  llvm::SmallVector<mlir::Value> tensorMapArguments;
  CostCounter counter;
  mlir::OpBuilder builder;
  int64_t threads = 0;
  mlir::Value threadIndex;
  mlir::Value consumerGroup;
  llvm::DenseMap<mlir::Value, Tensor> tensors;
  llvm::DenseMap<mlir::Value, PrivateBuffer> privates;
  llvm::DenseMap<mlir::Value, SharedBuffer> shareds;
};

} // namespace tilec

#endif // TILEC_CODEGEN_CONVERSION_TILETOLLVM_KERNELLOWERING_H

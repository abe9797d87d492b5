//===- TileToLLVM.cpp - tile kernels to NVVM kernel functions -------------===//
//
// Implements `convert-tile-to-llvm` (see Passes.td). The lowering walks the
// kernel body once and emits per-thread code directly:
//
// * Code outside `tile.parallel` runs in every thread ("uniform" code).
// * A `tile.parallel` loop with vector width W runs in steps; in each step a
//   thread handles W consecutive flat elements ("lanes"). The body is emitted
//   once per lane, op by op, so every lane executes the body's ops in order
//   while lanes interleave (iterations of a parallel loop are independent).
// * Vectorized accesses (see AccessAnalysis.h) read or write the lanes of a
//   chunk with one vector load/store. They are emitted only in the step's
//   fast path, which runs when every vectorized access is in bounds as a
//   whole; otherwise the slow path accesses every lane separately with a
//   bounds check.
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/Passes.h"

#include "dialects/Tile/TileOps.h"
#include "passes/AccessAnalysis.h"
#include "passes/ThreadMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace tilec {
#define GEN_PASS_DEF_CONVERTTILETOLLVM
#include "codegen/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {

/// Parallel loops with at most this many steps are unrolled.
constexpr int64_t kMaxUnrolledSteps = 8;
/// Loops that access fragments are unrolled up to this many steps, so that
/// every fragment index is a constant and the fragment lives in registers.
constexpr int64_t kMaxUnrolledFragmentSteps = 64;
/// ... and when their unrolled steps cost at most this much (estimated, see
/// kMaxKernelCost): more registers than a thread has cannot be saved anyway.
constexpr int64_t kMaxUnrolledParallelCost = 8192;
/// `tile.fill`/`tile.clear` of at most this many elements per thread are
/// emitted as straight-line stores.
constexpr int64_t kMaxUnrolledFill = 256;

/// The most a kernel may cost once its loops are unrolled (and its parallel
/// steps and lanes emitted), in operations emitted by the lowering. The
/// back end (LLVM's optimizer, ptxas) is superlinear in the size of a
/// function: this keeps the compilation of any kernel within seconds.
constexpr int64_t kMaxKernelCost = int64_t(1) << 15;
/// Local memory per thread (fragments, local arrays and variables): the
/// limit of every architecture since sm_20.
constexpr int64_t kMaxPrivateBytes = 512 * 1024;

/// Address space of global memory in NVVM.
constexpr unsigned kGlobalAddressSpace = 1;

/// A global tensor argument.
struct Tensor {
  /// `!llvm.ptr<1>` to element [0, ..., 0].
  Value base;
  Type elementType;
  /// How an element is stored (`i1` as `i8`).
  Type storageType;
  /// The extent of every dim, as `index` values.
  SmallVector<Value> dims;
};

/// The per-thread storage of a fragment, local array or variable.
struct PrivateBuffer {
  /// `!llvm.ptr` to the thread's elements.
  Value base;
  Type elementType;
  Type storageType;
  /// Elements per thread.
  int64_t size = 0;
  /// True for fragments, which are indexed by their parallel loop's lane.
  bool isFragment = false;
};

/// What one lane of a parallel step (or a thread outside parallel loops)
/// sees: the values of the kernel's SSA values, and, inside parallel loops,
/// the index of the lane's element in the thread's fragment storage.
struct Lane {
  IRMapping map;
  Value fragmentIndex;
};

/// How one `tile.parallel` loop is emitted.
struct ParallelPlan {
  tile::ParallelOp loop;
  ThreadDistribution distribution;
  /// Emit every step separately instead of a loop over steps.
  bool unrolled = false;
  /// The vectorized accesses of the body and their chunk widths (>= 2).
  llvm::MapVector<Operation *, int64_t> chunkWidths;
  /// The vectorized accesses whose row stride is checked at run time.
  llvm::SmallPtrSet<Operation *, 4> dynamicRowStride;
};

Type storageTypeOf(Type elementType) {
  if (elementType.isInteger(1))
    return IntegerType::get(elementType.getContext(), 8);
  return elementType;
}

/// Adds up the cost of the ops a builder creates.
struct CostCounter : public OpBuilder::Listener {
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    cost += getEmittedCost(op);
  }

  int64_t cost = 0;
};

/// Lowers one `tile.kernel` into an `llvm.func` inserted before it.
class KernelLowering {
public:
  explicit KernelLowering(tile::KernelOp kernel)
      : kernel(kernel), builder(kernel) {
    builder.setListener(&counter);
  }

  /// Emits the function and erases the kernel.
  LogicalResult run();
  /// What the emitted code costs (see kMaxKernelCost).
  int64_t getCost() const { return counter.cost; }

private:
  //===--- Setup ----------------------------------------------------------===//
  LLVM::LLVMFuncOp createFunction(int64_t threads);
  LogicalResult bindArguments(Block *entry, Lane &top);
  LogicalResult allocatePrivateBuffers();

  //===--- Uniform and per-lane code --------------------------------------===//
  LogicalResult emitBlock(Block &block, Lane &lane);
  LogicalResult emitOp(Operation &op, Lane &lane);
  LogicalResult reportTooLarge(Operation &op);
  LogicalResult emitLoad(tile::LoadOp load, Lane &lane);
  LogicalResult emitStore(tile::StoreOp store, Lane &lane);
  LogicalResult emitFill(Operation *op, Value buffer, Value value);
  LogicalResult emitIf(tile::IfOp ifOp, Lane &lane);
  LogicalResult emitCountedLoop(Operation *op, Value upperBound,
                                BlockArgument iv, Block &body, bool unroll,
                                Lane &lane);

  //===--- Parallel loops -------------------------------------------------===//
  LogicalResult emitParallel(tile::ParallelOp loop, Lane &outer);
  ParallelPlan planParallel(tile::ParallelOp loop, int64_t width);
  LogicalResult emitStep(const ParallelPlan &plan, Value step, Lane &outer,
                         bool guardTail);
  LogicalResult emitLanes(const ParallelPlan &plan, MutableArrayRef<Lane> lanes,
                          bool fast);
  Value materialize(Value value, Lane &lane);
  void emitVectorLoad(tile::LoadOp load, MutableArrayRef<Lane> lanes,
                      int64_t chunkWidth);
  void emitVectorStore(tile::StoreOp store, MutableArrayRef<Lane> lanes,
                       int64_t chunkWidth);

  //===--- Memory helpers -------------------------------------------------===//
  Value indexConstant(Location loc, int64_t value);
  Value zeroOf(Location loc, Type type);
  Value toStorage(Location loc, Value value);
  Value fromStorage(Location loc, Value stored, Type elementType);
  Value elementPointer(Location loc, const Tensor &tensor,
                       ArrayRef<Value> indices);
  Value inBounds(Location loc, const Tensor &tensor, ArrayRef<Value> indices,
                 int64_t lastIndexExtra = 0);
  FailureOr<Value> privatePointer(Operation *access, Value buffer,
                                  ArrayRef<Value> indices, Lane &lane);
  SmallVector<Value> lookup(Lane &lane, ValueRange values);

  tile::KernelOp kernel;
  CostCounter counter;
  OpBuilder builder;
  int64_t threads = 0;
  Value threadIndex;
  llvm::DenseMap<Value, Tensor> tensors;
  llvm::DenseMap<Value, PrivateBuffer> privates;
};

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::run() {
  tile::LaunchOp launch = kernel.getLaunch();
  if (!launch)
    return kernel.emitOpError("has no 'tile.launch'");
  threads = launch.getThreads();
  LLVM::LLVMFuncOp func = createFunction(threads);
  Block *entry = func.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);

  Lane top;
  if (failed(bindArguments(entry, top)) || failed(allocatePrivateBuffers()))
    return failure();

  MLIRContext *ctx = builder.getContext();
  Location loc = launch.getLoc();
  Value tid = NVVM::ThreadIdXOp::create(
      builder, loc, builder.getI32Type(),
      LLVM::ConstantRangeAttr::get(ctx, 32, 0, threads));
  threadIndex =
      arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(), tid);
  for (BlockArgument blockIndex : launch.getBlockIndices()) {
    Type i32 = builder.getI32Type();
    unsigned dim = blockIndex.getArgNumber();
    // Grid limits: 2^31-1 blocks in x, 65535 in y and z.
    auto range = LLVM::ConstantRangeAttr::get(
        ctx, 32, 0, dim == 0 ? std::numeric_limits<int32_t>::max() : 65535);
    Value id;
    if (dim == 0)
      id = NVVM::BlockIdXOp::create(builder, loc, i32, range);
    else if (dim == 1)
      id = NVVM::BlockIdYOp::create(builder, loc, i32, range);
    else
      id = NVVM::BlockIdZOp::create(builder, loc, i32, range);
    top.map.map(blockIndex, arith::IndexCastUIOp::create(
                                builder, loc, builder.getIndexType(), id));
  }

  // The kernel body computes the grid (only the metadata needs it) and
  // constants the launch body uses; the launch body is the device code.
  for (Operation &op : kernel.getBody().front().without_terminator()) {
    LogicalResult emitted = &op == launch.getOperation()
                                ? emitBlock(launch.getBody().front(), top)
                                : emitOp(op, top);
    if (failed(emitted))
      return failure();
  }
  LLVM::ReturnOp::create(builder, kernel.getLoc(), ValueRange());
  kernel.erase();
  return success();
}

LLVM::LLVMFuncOp KernelLowering::createFunction(int64_t threads) {
  MLIRContext *ctx = builder.getContext();
  SmallVector<Type> argTypes;
  for (Type type : kernel.getArgumentTypes()) {
    if (isa<tile::BufferType>(type))
      argTypes.push_back(LLVM::LLVMPointerType::get(ctx, kGlobalAddressSpace));
    else if (type.isIndex())
      argTypes.push_back(builder.getI64Type());
    else
      argTypes.push_back(storageTypeOf(type));
  }
  auto funcType =
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), argTypes);
  auto func = LLVM::LLVMFuncOp::create(builder, kernel.getLoc(),
                                       kernel.getSymName(), funcType);
  func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func->setAttr(
      NVVM::NVVMDialect::getMaxntidAttrName(),
      builder.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  for (BlockArgument arg : kernel.getArguments())
    if (isa<tile::BufferType>(arg.getType()))
      func.setArgAttr(arg.getArgNumber(), LLVM::LLVMDialect::getAlignAttrName(),
                      builder.getI64IntegerAttr(tensorAlignment(arg)));
  return func;
}

LogicalResult KernelLowering::bindArguments(Block *entry, Lane &top) {
  // Dims and scalars first: tensors refer to the dims.
  llvm::StringMap<Value> dimsByName;
  for (BlockArgument arg : kernel.getArguments()) {
    Value lowered = entry->getArgument(arg.getArgNumber());
    Location loc = arg.getLoc();
    if (isa<tile::BufferType>(arg.getType()))
      continue;
    if (arg.getType().isIndex()) {
      lowered = arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                           lowered);
      dimsByName[kernel.getArgName(arg.getArgNumber())] = lowered;
    } else if (arg.getType().isInteger(1)) {
      lowered = fromStorage(loc, lowered, arg.getType());
    }
    top.map.map(arg, lowered);
  }

  for (BlockArgument arg : kernel.getArguments()) {
    auto type = dyn_cast<tile::BufferType>(arg.getType());
    if (!type)
      continue;
    Tensor tensor;
    tensor.base = entry->getArgument(arg.getArgNumber());
    tensor.elementType = type.getElementType();
    tensor.storageType = storageTypeOf(type.getElementType());
    auto shape = kernel.getArgAttrOfType<ArrayAttr>(
        arg.getArgNumber(), tile::KernelOp::getArgShapeAttrName());
    for (auto [dim, extent] : llvm::enumerate(type.getShape())) {
      if (!ShapedType::isDynamic(extent)) {
        tensor.dims.push_back(indexConstant(arg.getLoc(), extent));
        continue;
      }
      auto name = shape ? dyn_cast<StringAttr>(shape[dim]) : StringAttr();
      Value dimValue = name ? dimsByName.lookup(name.getValue()) : Value();
      if (!dimValue)
        return kernel.emitOpError("tensor '")
               << kernel.getArgName(arg.getArgNumber()) << "' dim " << dim
               << " names no dim argument";
      tensor.dims.push_back(dimValue);
    }
    tensors[arg] = std::move(tensor);
  }
  return success();
}

LogicalResult KernelLowering::allocatePrivateBuffers() {
  Location loc = kernel.getLoc();
  Value one = LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                       builder.getI64IntegerAttr(1));
  auto pointerType = LLVM::LLVMPointerType::get(builder.getContext());
  int64_t totalBytes = 0;
  WalkResult result = kernel.walk([&](Operation *op) {
    if (!isa<tile::AllocFragmentOp, tile::AllocLocalOp, tile::AllocVarOp>(op))
      return WalkResult::advance();
    auto type = cast<tile::BufferType>(op->getResult(0).getType());
    PrivateBuffer buffer;
    buffer.elementType = type.getElementType();
    buffer.storageType = storageTypeOf(type.getElementType());
    buffer.size = type.getNumElements();
    if (isa<tile::AllocFragmentOp>(op)) {
      std::optional<int64_t> width = getVectorWidth(op);
      if (!width) {
        op->emitOpError("has no thread mapping; run "
                        "-tile-assign-thread-mapping first");
        return WalkResult::interrupt();
      }
      buffer.isFragment = true;
      buffer.size =
          ThreadDistribution{buffer.size, threads, *width}.elementsPerThread();
    }
    totalBytes += buffer.size * storageBytes(buffer.elementType);
    if (totalBytes > kMaxPrivateBytes) {
      emitError(op->getLoc())
          << "kernel '" << kernel.getSymName() << "' needs " << totalBytes
          << " bytes of local memory per thread with this allocation, but "
             "at most "
          << kMaxPrivateBytes << " are available";
      return WalkResult::interrupt();
    }
    auto storage = LLVM::LLVMArrayType::get(buffer.storageType, buffer.size);
    buffer.base =
        LLVM::AllocaOp::create(builder, op->getLoc(), pointerType, storage, one,
                               storageBytes(buffer.elementType));
    privates[op->getResult(0)] = buffer;
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Uniform and per-lane code
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::emitBlock(Block &block, Lane &lane) {
  for (Operation &op : block.without_terminator())
    if (failed(emitOp(op, lane)))
      return failure();
  return success();
}

LogicalResult KernelLowering::emitOp(Operation &op, Lane &lane) {
  if (counter.cost > kMaxKernelCost)
    return reportTooLarge(op);
  OpBuilder::InsertionGuard guard(builder);
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case<tile::AllocFragmentOp, tile::AllocLocalOp, tile::AllocVarOp>(
          [](Operation *) { return success(); })
      .Case([&](tile::LoadOp load) { return emitLoad(load, lane); })
      .Case([&](tile::StoreOp store) { return emitStore(store, lane); })
      .Case([&](tile::FillOp fill) {
        return emitFill(fill, fill.getBuffer(),
                        lane.map.lookup(fill.getValue()));
      })
      .Case([&](tile::ClearOp clear) {
        return emitFill(clear, clear.getBuffer(), Value());
      })
      .Case([&](tile::IfOp ifOp) { return emitIf(ifOp, lane); })
      .Case([&](tile::SerialOp loop) {
        return emitCountedLoop(loop, loop.getUpperBound(),
                               loop.getInductionVar(), loop.getBody().front(),
                               /*unroll=*/false, lane);
      })
      .Case([&](tile::UnrollOp loop) {
        return emitCountedLoop(loop, loop.getUpperBound(),
                               loop.getInductionVar(), loop.getBody().front(),
                               /*unroll=*/true, lane);
      })
      .Case([&](tile::ParallelOp loop) -> LogicalResult {
        if (lane.fragmentIndex)
          return loop.emitOpError("nested inside another 'tile.parallel' is "
                                  "not supported by the code generator");
        return emitParallel(loop, lane);
      })
      .Default([&](Operation *op) -> LogicalResult {
        if (isa<tile::TileDialect>(op->getDialect()) || op->getNumRegions())
          return op->emitOpError("cannot be lowered by convert-tile-to-llvm; "
                                 "run -tile-check-codegen-support first");
        builder.clone(*op, lane.map);
        return success();
      });
}

LogicalResult KernelLowering::reportTooLarge(Operation &op) {
  // The outermost loop that repeats `op` is the one to make smaller.
  Operation *culprit = &op;
  for (Operation *parent = op.getParentOp(); parent != kernel;
       parent = parent->getParentOp())
    if (isa<tile::UnrollOp, tile::ParallelOp>(parent))
      culprit = parent;
  return emitError(culprit->getLoc())
         << "kernel '" << kernel.getSymName()
         << "' is too large for the code generator: more than "
         << kMaxKernelCost
         << " operations once its loops are unrolled (a transcendental "
            "function or a division counts "
         << kExpensiveOpCost << ", " << kWideExpensiveOpCost << " in 64 bits)";
}

LogicalResult KernelLowering::emitLoad(tile::LoadOp load, Lane &lane) {
  Location loc = load.getLoc();
  SmallVector<Value> indices = lookup(lane, load.getIndices());
  Type elementType = load.getType();
  if (auto tensor = tensors.find(load.getBuffer()); tensor != tensors.end()) {
    // Out-of-bounds reads give 0.
    Value valid = inBounds(loc, tensor->second, indices);
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{elementType}, valid,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(ifOp.thenBlock());
    Value pointer = elementPointer(loc, tensor->second, indices);
    Value stored =
        LLVM::LoadOp::create(builder, loc, tensor->second.storageType, pointer);
    scf::YieldOp::create(builder, loc, fromStorage(loc, stored, elementType));
    builder.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(builder, loc, zeroOf(loc, elementType));
    lane.map.map(load.getResult(), ifOp.getResult(0));
    return success();
  }
  FailureOr<Value> pointer =
      privatePointer(load, load.getBuffer(), indices, lane);
  if (failed(pointer))
    return failure();
  Value stored =
      LLVM::LoadOp::create(builder, loc, storageTypeOf(elementType), *pointer);
  lane.map.map(load.getResult(), fromStorage(loc, stored, elementType));
  return success();
}

LogicalResult KernelLowering::emitStore(tile::StoreOp store, Lane &lane) {
  Location loc = store.getLoc();
  SmallVector<Value> indices = lookup(lane, store.getIndices());
  Value value = toStorage(loc, lane.map.lookup(store.getValue()));
  if (auto tensor = tensors.find(store.getBuffer()); tensor != tensors.end()) {
    // Out-of-bounds writes are dropped.
    Value valid = inBounds(loc, tensor->second, indices);
    auto ifOp = scf::IfOp::create(builder, loc, valid,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    Value pointer = elementPointer(loc, tensor->second, indices);
    LLVM::StoreOp::create(builder, loc, value, pointer);
    return success();
  }
  FailureOr<Value> pointer =
      privatePointer(store, store.getBuffer(), indices, lane);
  if (failed(pointer))
    return failure();
  LLVM::StoreOp::create(builder, loc, value, *pointer);
  return success();
}

LogicalResult KernelLowering::emitFill(Operation *op, Value buffer,
                                       Value value) {
  Location loc = op->getLoc();
  auto found = privates.find(buffer);
  if (found == privates.end())
    return op->emitOpError("of a shared buffer is not supported by the code "
                           "generator yet");
  const PrivateBuffer &storage = found->second;
  Value stored =
      toStorage(loc, value ? value : zeroOf(loc, storage.elementType));
  auto storeAt = [&](Value index) {
    Value offset =
        arith::IndexCastOp::create(builder, loc, builder.getI64Type(), index);
    Value pointer = LLVM::GEPOp::create(builder, loc, storage.base.getType(),
                                        storage.storageType, storage.base,
                                        ValueRange{offset});
    LLVM::StoreOp::create(builder, loc, stored, pointer);
  };
  if (storage.size <= kMaxUnrolledFill) {
    for (int64_t i = 0; i < storage.size; ++i)
      storeAt(indexConstant(loc, i));
    return success();
  }
  auto loop = scf::ForOp::create(builder, loc, indexConstant(loc, 0),
                                 indexConstant(loc, storage.size),
                                 indexConstant(loc, 1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  storeAt(loop.getInductionVar());
  return success();
}

LogicalResult KernelLowering::emitIf(tile::IfOp ifOp, Lane &lane) {
  bool hasElse = !ifOp.getElseRegion().empty();
  auto lowered = scf::IfOp::create(builder, ifOp.getLoc(),
                                   lane.map.lookup(ifOp.getCondition()),
                                   /*withElseRegion=*/hasElse);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(lowered.thenBlock()->getTerminator());
  if (failed(emitBlock(ifOp.getThenRegion().front(), lane)))
    return failure();
  if (!hasElse)
    return success();
  builder.setInsertionPoint(lowered.elseBlock()->getTerminator());
  return emitBlock(ifOp.getElseRegion().front(), lane);
}

LogicalResult KernelLowering::emitCountedLoop(Operation *op, Value upperBound,
                                              BlockArgument iv, Block &body,
                                              bool unroll, Lane &lane) {
  Location loc = op->getLoc();
  if (unroll) {
    // `tile.unroll` has a constant trip count (its verifier checks it).
    APInt tripCount;
    if (!matchPattern(upperBound, m_ConstantInt(&tripCount)))
      return op->emitOpError("trip count must be a compile-time constant");
    // Even an empty body must not spin for 2^62 trips.
    if (tripCount.getSExtValue() > kMaxKernelCost)
      return reportTooLarge(*op);
    for (int64_t i = 0, e = tripCount.getSExtValue(); i < e; ++i) {
      lane.map.map(iv, indexConstant(loc, i));
      if (failed(emitBlock(body, lane)))
        return failure();
    }
    return success();
  }
  auto loop =
      scf::ForOp::create(builder, loc, indexConstant(loc, 0),
                         lane.map.lookup(upperBound), indexConstant(loc, 1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  lane.map.map(iv, loop.getInductionVar());
  return emitBlock(body, lane);
}

//===----------------------------------------------------------------------===//
// Parallel loops
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::emitParallel(tile::ParallelOp loop, Lane &outer) {
  std::optional<int64_t> width = getVectorWidth(loop);
  if (!width)
    return loop.emitOpError("has no thread mapping; run "
                            "-tile-assign-thread-mapping first");
  if (*width < 1 || !llvm::isPowerOf2_64(*width) ||
      loop.getExtents().back() % *width != 0)
    return loop.emitOpError("vector width ")
           << *width << " must be a power of two dividing the innermost extent";
  WalkResult fragmentCheck = loop.getBody().walk([&](Operation *op) {
    Value buffer = isa<tile::LoadOp>(op) ? cast<tile::LoadOp>(op).getBuffer()
                   : isa<tile::StoreOp>(op)
                       ? cast<tile::StoreOp>(op).getBuffer()
                       : Value();
    auto alloc = buffer ? buffer.getDefiningOp<tile::AllocFragmentOp>()
                        : tile::AllocFragmentOp();
    if (alloc && getVectorWidth(alloc) != width) {
      op->emitOpError("accesses a fragment whose thread mapping differs from "
                      "its loop's; run -tile-assign-thread-mapping");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (fragmentCheck.wasInterrupted())
    return failure();
  ParallelPlan plan = planParallel(loop, *width);
  const ThreadDistribution &distribution = plan.distribution;
  Location loc = loop.getLoc();
  if (plan.unrolled) {
    for (int64_t step = 0; step < distribution.steps(); ++step) {
      bool last = step + 1 == distribution.steps();
      if (failed(emitStep(plan, indexConstant(loc, step), outer,
                          last && distribution.hasPartialStep())))
        return failure();
    }
    return success();
  }
  auto steps = scf::ForOp::create(builder, loc, indexConstant(loc, 0),
                                  indexConstant(loc, distribution.steps()),
                                  indexConstant(loc, 1));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(steps.getBody()->getTerminator());
  return emitStep(plan, steps.getInductionVar(), outer,
                  distribution.hasPartialStep());
}

ParallelPlan KernelLowering::planParallel(tile::ParallelOp loop,
                                          int64_t width) {
  ParallelPlan plan;
  plan.loop = loop;
  int64_t total = 1;
  for (int64_t extent : loop.getExtents())
    total *= extent;
  plan.distribution = ThreadDistribution{total, threads, width};

  bool accessesFragment = false;
  loop.getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (auto buffer = dyn_cast<tile::BufferType>(operand.getType()))
        accessesFragment |= buffer.isFragment();
  });
  for (const VectorizableAccess &access : findContiguousAccesses(loop, width)) {
    if (access.chunkWidth < 2)
      continue;
    plan.chunkWidths[access.op] = access.chunkWidth;
    if (access.access.dynamicRowStride)
      plan.dynamicRowStride.insert(access.op);
  }

  // Every step emits the body once per lane, twice with a fast path.
  int64_t steps = plan.distribution.steps();
  uint64_t unrolledCost = llvm::SaturatingMultiply(
      estimateEmittedCost(loop.getBody().front()),
      uint64_t(steps * width * (plan.chunkWidths.empty() ? 1 : 2)));
  plan.unrolled = (steps <= kMaxUnrolledSteps ||
                   (accessesFragment && steps <= kMaxUnrolledFragmentSteps)) &&
                  unrolledCost <= kMaxUnrolledParallelCost;
  return plan;
}

LogicalResult KernelLowering::emitStep(const ParallelPlan &plan, Value step,
                                       Lane &outer, bool guardTail) {
  tile::ParallelOp loop = plan.loop;
  Location loc = loop.getLoc();
  int64_t width = plan.distribution.width;
  OpBuilder::InsertionGuard guard(builder);

  // The flat index of the thread's first element in this step.
  Value stepBase = arith::MulIOp::create(
      builder, loc, step,
      indexConstant(loc, plan.distribution.elementsPerStep()));
  Value threadBase = arith::MulIOp::create(builder, loc, threadIndex,
                                           indexConstant(loc, width));
  Value flat = arith::AddIOp::create(builder, loc, stepBase, threadBase);
  if (guardTail) {
    Value inRange =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, flat,
                              indexConstant(loc, plan.distribution.total));
    auto ifOp = scf::IfOp::create(builder, loc, inRange,
                                  /*withElseRegion=*/false);
    builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }

  // Row-major delinearization; W divides the innermost extent, so the lanes
  // differ only in the innermost induction variable.
  ArrayRef<int64_t> extents = loop.getExtents();
  SmallVector<Value> ivs(extents.size());
  Value rest = flat;
  for (size_t d = extents.size() - 1; d > 0; --d) {
    Value extent = indexConstant(loc, extents[d]);
    ivs[d] = arith::RemUIOp::create(builder, loc, rest, extent);
    rest = arith::DivUIOp::create(builder, loc, rest, extent);
  }
  ivs[0] = rest;

  Value fragmentBase =
      arith::MulIOp::create(builder, loc, step, indexConstant(loc, width));
  SmallVector<Lane> lanes(width, outer);
  for (auto [laneIndex, lane] : llvm::enumerate(lanes)) {
    Value offset = indexConstant(loc, laneIndex);
    for (auto [d, iv] : llvm::enumerate(loop.getInductionVars()))
      lane.map.map(iv, d + 1 == extents.size() && laneIndex
                           ? arith::AddIOp::create(builder, loc, ivs[d], offset)
                           : ivs[d]);
    lane.fragmentIndex =
        arith::AddIOp::create(builder, loc, fragmentBase, offset);
  }

  if (plan.chunkWidths.empty())
    return emitLanes(plan, lanes, /*fast=*/false);

  // The fast path needs every vectorized access in bounds as a whole (and,
  // for symbolic row strides, every row start aligned to the chunk).
  Lane probe = lanes.front();
  Value fast;
  auto conjoin = [&](Value condition) {
    fast =
        fast ? arith::AndIOp::create(builder, loc, fast, condition) : condition;
  };
  for (auto [op, chunk] : plan.chunkWidths) {
    Value buffer = isa<tile::LoadOp>(op) ? cast<tile::LoadOp>(op).getBuffer()
                                         : cast<tile::StoreOp>(op).getBuffer();
    auto indices = isa<tile::LoadOp>(op) ? cast<tile::LoadOp>(op).getIndices()
                                         : cast<tile::StoreOp>(op).getIndices();
    SmallVector<Value> values;
    for (Value index : indices)
      values.push_back(materialize(index, probe));
    const Tensor &tensor = tensors.at(buffer);
    conjoin(inBounds(loc, tensor, values, width - 1));
    if (plan.dynamicRowStride.contains(op)) {
      Value remainder = arith::RemUIOp::create(builder, loc, tensor.dims.back(),
                                               indexConstant(loc, chunk));
      conjoin(arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                    remainder, indexConstant(loc, 0)));
    }
  }
  auto paths = scf::IfOp::create(builder, loc, fast, /*withElseRegion=*/true);
  builder.setInsertionPoint(paths.thenBlock()->getTerminator());
  SmallVector<Lane> fastLanes = lanes;
  if (failed(emitLanes(plan, fastLanes, /*fast=*/true)))
    return failure();
  builder.setInsertionPoint(paths.elseBlock()->getTerminator());
  return emitLanes(plan, lanes, /*fast=*/false);
}

LogicalResult KernelLowering::emitLanes(const ParallelPlan &plan,
                                        MutableArrayRef<Lane> lanes,
                                        bool fast) {
  tile::ParallelOp loop = plan.loop;
  for (Operation &op : loop.getBody().front().without_terminator()) {
    if (fast) {
      auto chunk = plan.chunkWidths.find(&op);
      if (chunk != plan.chunkWidths.end()) {
        if (auto load = dyn_cast<tile::LoadOp>(op))
          emitVectorLoad(load, lanes, chunk->second);
        else
          emitVectorStore(cast<tile::StoreOp>(op), lanes, chunk->second);
        continue;
      }
    }
    for (Lane &lane : lanes)
      if (failed(emitOp(op, lane)))
        return failure();
  }
  return success();
}

Value KernelLowering::materialize(Value value, Lane &lane) {
  if (Value mapped = lane.map.lookupOrNull(value))
    return mapped;
  // The analysis guarantees a pure, region-free slice inside the loop.
  Operation *op = value.getDefiningOp();
  for (Value operand : op->getOperands())
    materialize(operand, lane);
  builder.clone(*op, lane.map);
  return lane.map.lookup(value);
}

void KernelLowering::emitVectorLoad(tile::LoadOp load,
                                    MutableArrayRef<Lane> lanes,
                                    int64_t chunkWidth) {
  Location loc = load.getLoc();
  const Tensor &tensor = tensors.at(load.getBuffer());
  auto vectorType = VectorType::get({chunkWidth}, tensor.storageType);
  unsigned alignment = chunkWidth * storageBytes(tensor.elementType);
  for (size_t first = 0; first < lanes.size(); first += chunkWidth) {
    Value pointer =
        elementPointer(loc, tensor, lookup(lanes[first], load.getIndices()));
    Value vector =
        LLVM::LoadOp::create(builder, loc, vectorType, pointer, alignment);
    for (int64_t i = 0; i < chunkWidth; ++i) {
      Value position = LLVM::ConstantOp::create(
          builder, loc, builder.getI32Type(), builder.getI32IntegerAttr(i));
      Value element =
          LLVM::ExtractElementOp::create(builder, loc, vector, position);
      lanes[first + i].map.map(load.getResult(),
                               fromStorage(loc, element, tensor.elementType));
    }
  }
}

void KernelLowering::emitVectorStore(tile::StoreOp store,
                                     MutableArrayRef<Lane> lanes,
                                     int64_t chunkWidth) {
  Location loc = store.getLoc();
  const Tensor &tensor = tensors.at(store.getBuffer());
  auto vectorType = VectorType::get({chunkWidth}, tensor.storageType);
  unsigned alignment = chunkWidth * storageBytes(tensor.elementType);
  for (size_t first = 0; first < lanes.size(); first += chunkWidth) {
    Value vector = LLVM::PoisonOp::create(builder, loc, vectorType);
    for (int64_t i = 0; i < chunkWidth; ++i) {
      Value position = LLVM::ConstantOp::create(
          builder, loc, builder.getI32Type(), builder.getI32IntegerAttr(i));
      Value element =
          toStorage(loc, lanes[first + i].map.lookup(store.getValue()));
      vector = LLVM::InsertElementOp::create(builder, loc, vector, element,
                                             position);
    }
    Value pointer =
        elementPointer(loc, tensor, lookup(lanes[first], store.getIndices()));
    LLVM::StoreOp::create(builder, loc, vector, pointer, alignment);
  }
}

//===----------------------------------------------------------------------===//
// Memory helpers
//===----------------------------------------------------------------------===//

Value KernelLowering::indexConstant(Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

Value KernelLowering::zeroOf(Location loc, Type type) {
  return arith::ConstantOp::create(builder, loc, builder.getZeroAttr(type));
}

Value KernelLowering::toStorage(Location loc, Value value) {
  if (!value.getType().isInteger(1))
    return value;
  return arith::ExtUIOp::create(builder, loc, builder.getI8Type(), value);
}

Value KernelLowering::fromStorage(Location loc, Value stored,
                                  Type elementType) {
  if (!elementType.isInteger(1))
    return stored;
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, stored,
                               zeroOf(loc, stored.getType()));
}

Value KernelLowering::elementPointer(Location loc, const Tensor &tensor,
                                     ArrayRef<Value> indices) {
  // Row-major: ((i0 * D1 + i1) * D2 + i2) ...
  Value offset = indices.front();
  for (size_t d = 1; d < indices.size(); ++d)
    offset = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, offset, tensor.dims[d]),
        indices[d]);
  Value offset64 =
      arith::IndexCastOp::create(builder, loc, builder.getI64Type(), offset);
  return LLVM::GEPOp::create(builder, loc, tensor.base.getType(),
                             tensor.storageType, tensor.base,
                             ValueRange{offset64});
}

Value KernelLowering::inBounds(Location loc, const Tensor &tensor,
                               ArrayRef<Value> indices,
                               int64_t lastIndexExtra) {
  // Unsigned comparisons also reject negative indices.
  Value all;
  auto conjoin = [&](Value index, Value extent) {
    Value valid = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                        index, extent);
    all = all ? arith::AndIOp::create(builder, loc, all, valid) : valid;
  };
  for (auto [index, extent] : llvm::zip(indices, tensor.dims))
    conjoin(index, extent);
  if (lastIndexExtra)
    conjoin(arith::AddIOp::create(builder, loc, indices.back(),
                                  indexConstant(loc, lastIndexExtra)),
            tensor.dims.back());
  return all;
}

FailureOr<Value> KernelLowering::privatePointer(Operation *access,
                                                Value bufferValue,
                                                ArrayRef<Value> indices,
                                                Lane &lane) {
  Location loc = access->getLoc();
  auto found = privates.find(bufferValue);
  if (found == privates.end())
    return access->emitOpError("of a shared buffer is not supported by the "
                               "code generator yet");
  const PrivateBuffer &buffer = found->second;
  Value linear;
  if (buffer.isFragment) {
    if (!lane.fragmentIndex)
      return access->emitOpError("of a fragment outside a 'tile.parallel' "
                                 "loop is not supported by the code "
                                 "generator");
    linear = lane.fragmentIndex;
  } else if (indices.empty()) {
    linear = indexConstant(loc, 0);
  } else {
    auto type = cast<tile::BufferType>(bufferValue.getType());
    linear = indices.front();
    for (size_t d = 1; d < indices.size(); ++d)
      linear = arith::AddIOp::create(
          builder, loc,
          arith::MulIOp::create(builder, loc, linear,
                                indexConstant(loc, type.getDimSize(d))),
          indices[d]);
  }
  Value offset =
      arith::IndexCastOp::create(builder, loc, builder.getI64Type(), linear);
  return LLVM::GEPOp::create(builder, loc, buffer.base.getType(),
                             buffer.storageType, buffer.base,
                             ValueRange{offset})
      .getResult();
}

SmallVector<Value> KernelLowering::lookup(Lane &lane, ValueRange values) {
  SmallVector<Value> mapped;
  for (Value value : values)
    mapped.push_back(lane.map.lookup(value));
  return mapped;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct ConvertTileToLLVM
    : public tilec::impl::ConvertTileToLLVMBase<ConvertTileToLLVM> {
  void runOnOperation() override {
    SmallVector<tile::KernelOp> kernels(
        getOperation().getOps<tile::KernelOp>());
    int64_t cost = 0;
    for (tile::KernelOp kernel : kernels) {
      KernelLowering lowering(kernel);
      if (failed(lowering.run()))
        return signalPassFailure();
      cost += lowering.getCost();
    }
    getOperation()->setAttr(
        kCodegenCostAttrName,
        IntegerAttr::get(IntegerType::get(&getContext(), 64), cost));
  }
};
} // namespace

//===- KernelLowering.cpp - One tile kernel to an NVVM function -----------===//
//
// The driver of the lowering: the function and its ABI (docs/abi.md), the
// thread and block indices, the per-thread storage (shared tiles are set up
// in SharedMemory.cpp), and the dispatch of every op to its lowering
// (Lowerings.h).
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/TileToLLVM/KernelLowering.h"

#include "codegen/CodegenLimits.h"
#include "dialects/Tile/TileTarget.h"
#include "passes/Analysis/AccessAnalysis.h"
#include "passes/Analysis/CodeSize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace tilec;

Type tilec::storageTypeOf(Type elementType) {
  if (elementType.isInteger(1))
    return IntegerType::get(elementType.getContext(), 8);
  return elementType;
}

void KernelLowering::CostCounter::notifyOperationInserted(
    Operation *op, OpBuilder::InsertPoint previous) {
  cost += getEmittedCost(op);
}

KernelLowering::KernelLowering(tile::KernelOp kernel,
                               const LoweringSet &lowerings)
    : kernel(kernel), lowerings(lowerings), builder(kernel) {
  builder.setListener(&counter);
  kernel.walk([&](tile::GemmOp gemm) {
    auto layout = dyn_cast_or_null<tile::MmaLayoutAttr>(
        cast<tile::BufferType>(gemm.getC().getType()).getLayout());
    wgmma |= layout && layout.getWarpgroup();
  });
  if (tile::LaunchOp launch = kernel.getLaunch())
    if (tile::WarpSpecializeOp roles = launch.getWarpSpecialize()) {
      producerThreads = roles.getProducerThreads();
      consumerGroups = roles.getConsumerGroups();
    }
  tensorMaps = collectTensorMaps(kernel);
}

Value KernelLowering::findTensorMap(tile::CopyOp copy) const {
  std::optional<size_t> index = tilec::findTensorMap(tensorMaps, copy);
  return index ? tensorMapArguments[*index] : Value();
}

std::pair<Value, Value>
KernelLowering::warpGridPosition(Location loc, const tile::MmaTiling &tiling) {
  Value warp =
      arith::DivUIOp::create(builder, loc, threadIndex, indexConstant(loc, 32));
  // Warpgroup order numbers warps down the grid's columns.
  int64_t minor = tiling.warpgroup ? tiling.warpsM : tiling.warpsN;
  Value quotient =
      arith::DivUIOp::create(builder, loc, warp, indexConstant(loc, minor));
  Value remainder =
      arith::RemUIOp::create(builder, loc, warp, indexConstant(loc, minor));
  if (tiling.warpgroup)
    return {remainder, quotient};
  return {quotient, remainder};
}

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::run() {
  tile::LaunchOp launch = kernel.getLaunch();
  if (!launch)
    return kernel.emitOpError("has no 'tile.launch'");
  threads = launch.getThreads();
  LLVM::LLVMFuncOp func = createFunction();
  Block *entry = func.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);

  Lane top;
  if (failed(bindArguments(entry, top)) || failed(allocatePrivateBuffers()) ||
      failed(allocateSharedBuffers(func)))
    return failure();
  bindThreadAndBlockIndices(launch, top);

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

LLVM::LLVMFuncOp KernelLowering::createFunction() {
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
  // Tensor maps come last (docs/abi.md): 128-byte CUtensorMaps passed by
  // value in the parameter space, where TMA reads them (TOOLCHAIN.md,
  // gotcha 5).
  auto pointer = LLVM::LLVMPointerType::get(ctx);
  argTypes.append(tensorMaps.size(), pointer);
  auto funcType =
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), argTypes);
  auto func = LLVM::LLVMFuncOp::create(builder, kernel.getLoc(),
                                       kernel.getSymName(), funcType);
  func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                builder.getDenseI32ArrayAttr(
                    {static_cast<int32_t>(getBlockThreads()), 1, 1}));
  // setmaxnreg takes effect only under a register cap at entry, which
  // .maxntid with .minnctapersm gives (TENSORCORES.md §8).
  if (std::optional<RegisterSplit> split = getRegisterSplit())
    func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  builder.getI32IntegerAttr(split->blocksPerMultiprocessor));
  for (BlockArgument arg : kernel.getArguments())
    if (isa<tile::BufferType>(arg.getType()))
      func.setArgAttr(arg.getArgNumber(), LLVM::LLVMDialect::getAlignAttrName(),
                      builder.getI64IntegerAttr(tensorAlignment(arg)));
  auto mapType = LLVM::LLVMArrayType::get(builder.getI8Type(), 128);
  for (size_t i = 0; i < tensorMaps.size(); ++i) {
    unsigned index = kernel.getNumArguments() + i;
    func.setArgAttr(index, LLVM::LLVMDialect::getByValAttrName(),
                    TypeAttr::get(mapType));
    func.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(),
                    builder.getI64IntegerAttr(64));
    func.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),
                    builder.getUnitAttr());
  }
  return func;
}

void KernelLowering::bindThreadAndBlockIndices(tile::LaunchOp launch,
                                               Lane &top) {
  MLIRContext *ctx = builder.getContext();
  Location loc = launch.getLoc();
  Value tid = NVVM::ThreadIdXOp::create(
      builder, loc, builder.getI32Type(),
      LLVM::ConstantRangeAttr::get(ctx, 32, 0, getBlockThreads()));
  threadIndex =
      arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(), tid);
  for (BlockArgument blockIndex : launch.getBlockIndices())
    top.map.map(blockIndex, emitBlockIndex(loc, blockIndex.getArgNumber()));
}

std::optional<KernelLowering::RegisterSplit>
KernelLowering::getRegisterSplit() const {
  int64_t consumers = getConsumerThreads();
  if (!isWarpSpecialized() || consumers % 128 != 0)
    return std::nullopt;
  // Registers are allocated to warps in units of 8 per thread.
  auto roundDown = [](int64_t registers) { return registers / 8 * 8; };
  int32_t blocks = 1;
  if (consumers == 128) {
    // One consumer warpgroup: two blocks per multiprocessor, where its
    // shared memory has room for them.
    tile::TargetAttr target = tile::getTarget(kernel);
    auto bytes = kernel->getAttrOfType<IntegerAttr>(
        tile::TileDialect::SharedMemoryBytesAttrHelper::getNameStr());
    if (!target || !bytes ||
        !target.getDescription().fitsBlocksPerMultiprocessor(2, bytes.getInt()))
      return std::nullopt;
    // ptxas fits each instruction in the registers at entry (128 for two
    // blocks): a wgmma's accumulator registers (N / 2 of m64nNk16) and its
    // operands too, so N must be at most 128.
    bool narrowWgmma = true;
    tile::KernelOp walked = kernel;
    walked.walk([&](tile::GemmOp gemm) {
      auto c = cast<tile::BufferType>(gemm.getC().getType());
      auto mma = dyn_cast_or_null<tile::MmaLayoutAttr>(c.getLayout());
      if (!mma)
        return;
      FailureOr<tile::MmaTiling> tiling = mma.getTiling(c.getShape());
      if (failed(tiling) || (tiling->warpgroup && tiling->warpTileN > 128))
        narrowWgmma = false;
    });
    if (!narrowWgmma)
      return std::nullopt;
    blocks = 2;
  }
  // The block starts with its share of the register file (what ptxas
  // allots under .maxntid and .minnctapersm); the producers keep 40 and the
  // consumers split the rest.
  constexpr int64_t kRegisterFile = 65536;
  constexpr int32_t kProducerRegisters = 40;
  int64_t blockThreads = getBlockThreads();
  int64_t entry = std::min<int64_t>(
      255, roundDown(kRegisterFile / (blocks * blockThreads)));
  int64_t consumer = std::min<int64_t>(
      255,
      roundDown((entry * blockThreads - kProducerRegisters * producerThreads) /
                consumers));
  return RegisterSplit{blocks, kProducerRegisters, int32_t(consumer)};
}

LogicalResult KernelLowering::withPinnedThreadIndex(
    Location loc, llvm::function_ref<LogicalResult()> body) {
  Type i32 = builder.getI32Type();
  auto read = LLVM::InlineAsmOp::create(
      builder, loc, i32, ValueRange(), "mov.u32 $0, %tid.x;", "=r",
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
      /*operand_attrs=*/nullptr);
  // The mask keeps the value and gives LLVM its range back.
  uint64_t mask = llvm::PowerOf2Ceil(uint64_t(getBlockThreads())) - 1;
  Value tid = arith::AndIOp::create(
      builder, loc, read.getResult(0),
      arith::ConstantIntOp::create(builder, loc, i32, mask));
  Value kernelWide = threadIndex;
  threadIndex =
      arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(), tid);
  if (consumerGroup)
    threadIndex = groupThreadIndex(loc, threadIndex);
  LogicalResult result = body();
  threadIndex = kernelWide;
  return result;
}

Value KernelLowering::groupThreadIndex(Location loc, Value tid) {
  return arith::RemUIOp::create(builder, loc, tid, indexConstant(loc, threads));
}

LogicalResult
KernelLowering::asConsumerGroup(Location loc,
                                llvm::function_ref<LogicalResult()> body) {
  Value kernelWide = threadIndex;
  consumerGroup = arith::DivUIOp::create(builder, loc, threadIndex,
                                         indexConstant(loc, threads));
  threadIndex = groupThreadIndex(loc, threadIndex);
  LogicalResult result = body();
  threadIndex = kernelWide;
  consumerGroup = nullptr;
  return result;
}

Value KernelLowering::emitBlockIndex(Location loc, unsigned dim) {
  Type i32 = builder.getI32Type();
  // Grid limits: 2^31-1 blocks in x, 65535 in y and z.
  auto range = LLVM::ConstantRangeAttr::get(
      builder.getContext(), 32, 0,
      dim == 0 ? std::numeric_limits<int32_t>::max() : 65535);
  Value id;
  if (dim == 0)
    id = NVVM::BlockIdXOp::create(builder, loc, i32, range);
  else if (dim == 1)
    id = NVVM::BlockIdYOp::create(builder, loc, i32, range);
  else
    id = NVVM::BlockIdZOp::create(builder, loc, i32, range);
  return arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(), id);
}

Value KernelLowering::emitGridExtent(Location loc, unsigned dim) {
  Type i32 = builder.getI32Type();
  auto range = LLVM::ConstantRangeAttr::get(
      builder.getContext(), 32, 1, dim == 0 ? int64_t(1) << 31 : 65536);
  Value extent;
  if (dim == 0)
    extent = NVVM::GridDimXOp::create(builder, loc, i32, range);
  else if (dim == 1)
    extent = NVVM::GridDimYOp::create(builder, loc, i32, range);
  else
    extent = NVVM::GridDimZOp::create(builder, loc, i32, range);
  return arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(),
                                      extent);
}

Value KernelLowering::emitClusterIndex(Location loc, unsigned dim) {
  Type i32 = builder.getI32Type();
  Value id;
  if (dim == 0)
    id = NVVM::ClusterIdXOp::create(builder, loc, i32);
  else if (dim == 1)
    id = NVVM::ClusterIdYOp::create(builder, loc, i32);
  else
    id = NVVM::ClusterIdZOp::create(builder, loc, i32);
  return arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(), id);
}

Value KernelLowering::emitClusterCount(Location loc, unsigned dim) {
  Type i32 = builder.getI32Type();
  Value count;
  if (dim == 0)
    count = NVVM::ClusterDimXOp::create(builder, loc, i32);
  else if (dim == 1)
    count = NVVM::ClusterDimYOp::create(builder, loc, i32);
  else
    count = NVVM::ClusterDimZOp::create(builder, loc, i32);
  return arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(),
                                      count);
}

Value KernelLowering::emitClusterRank(Location loc) {
  return arith::IndexCastUIOp::create(
      builder, loc, builder.getIndexType(),
      NVVM::ClusterId::create(builder, loc, builder.getI32Type()));
}

void KernelLowering::emitGuarded(Location loc, Value condition,
                                 llvm::function_ref<void()> body) {
  if (!condition)
    return body();
  auto ifOp = scf::IfOp::create(builder, loc, condition,
                                /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  body();
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
  for (size_t i = 0; i < tensorMaps.size(); ++i)
    tensorMapArguments.push_back(
        entry->getArgument(kernel.getNumArguments() + i));
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
      auto layout = dyn_cast_or_null<tile::DistributedLayoutAttrInterface>(
          type.getLayout());
      if (!layout) {
        op->emitOpError("has no thread layout; run -tile-infer-layouts "
                        "first");
        return WalkResult::interrupt();
      }
      buffer.fragmentLayout = layout;
      buffer.size = layout.getElementsPerThread(type.getShape(), threads);
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

const Tensor *KernelLowering::findTensor(Value buffer) const {
  auto found = tensors.find(buffer);
  return found == tensors.end() ? nullptr : &found->second;
}

const PrivateBuffer *KernelLowering::findPrivate(Value buffer) const {
  auto found = privates.find(buffer);
  return found == privates.end() ? nullptr : &found->second;
}

const SharedBuffer *KernelLowering::findShared(Value buffer) const {
  auto found = shareds.find(buffer);
  return found == shareds.end() ? nullptr : &found->second;
}

//===----------------------------------------------------------------------===//
// Emission
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
  if (const OpLowering *lower = lowerings.lookup(&op))
    return (*lower)(*this, &op, lane);
  if (isa<tile::TileDialect>(op.getDialect()) || op.getNumRegions())
    return op.emitOpError("cannot be lowered by convert-tile-to-llvm; "
                          "run -tile-check-codegen-support first");
  builder.clone(op, lane.map);
  return success();
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

Value KernelLowering::materialize(Value value, Lane &lane) {
  if (Value mapped = lane.map.lookupOrNull(value))
    return mapped;
  // The access analysis guarantees a pure, region-free slice.
  Operation *op = value.getDefiningOp();
  for (Value operand : op->getOperands())
    materialize(operand, lane);
  builder.clone(*op, lane.map);
  return lane.map.lookup(value);
}

SmallVector<Value> KernelLowering::lookup(Lane &lane, ValueRange values) {
  SmallVector<Value> mapped;
  for (Value value : values)
    mapped.push_back(lane.map.lookup(value));
  return mapped;
}

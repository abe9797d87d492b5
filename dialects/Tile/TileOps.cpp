//===- TileOps.cpp - Operations of the tile dialect -----------------------===//
//
// Custom assembly formats, builders and verifiers of the `tile` ops.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Returns the buffer type of `value`.
static BufferType bufferType(Value value) {
  return cast<BufferType>(value.getType());
}

/// Prints a shape as `[d0, d1, ...]` for diagnostics.
static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (auto [index, dim] : llvm::enumerate(shape)) {
    if (index)
      text += ", ";
    text += ShapedType::isDynamic(dim) ? "?" : std::to_string(dim);
  }
  return text + "]";
}

/// Verifies that a buffer operand lives in one of `allowed` scopes.
static LogicalResult verifyScope(Operation *op, StringRef role, Value buffer,
                                 ArrayRef<MemoryScope> allowed) {
  MemoryScope scope = bufferType(buffer).getScope();
  if (llvm::is_contained(allowed, scope))
    return success();
  InFlightDiagnostic diag = op->emitOpError() << role << " must be a ";
  llvm::interleave(
      allowed, diag, [&](MemoryScope s) { diag << stringifyMemoryScope(s); },
      " or ");
  return diag << " buffer, got a " << stringifyMemoryScope(scope) << " buffer";
}

/// Creates the single block of `region` with `numIndices` index arguments and
/// the implicit terminator `TerminatorOp`.
template <typename TerminatorOp>
static void buildBodyWithIndices(OpBuilder &builder, Location loc,
                                 Region &region, unsigned numIndices) {
  Block *block = new Block();
  region.push_back(block);
  for (unsigned i = 0; i < numIndices; ++i)
    block->addArgument(builder.getIndexType(), loc);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  TerminatorOp::create(builder, loc);
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Type input : type.getInputs())
    block->addArgument(input, state.location);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  ReturnOp::create(builder, state.location);
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildType = [](Builder &builder, ArrayRef<Type> inputs,
                      ArrayRef<Type> results,
                      function_interface_impl::VariadicFlag, std::string &) {
    return builder.getFunctionType(inputs, results);
  };
  SMLoc loc = parser.getCurrentLocation();
  if (function_interface_impl::parseFunctionOp(
          parser, result, /*allowVariadic=*/false,
          getFunctionTypeAttrName(result.name), buildType,
          getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name)))
    return failure();
  Region &body = *result.regions.front();
  if (body.empty())
    return parser.emitError(loc, "a tile.kernel must have a body");
  ensureTerminator(body, parser.getBuilder(), result.location);
  return success();
}

void KernelOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(
      printer, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

StringRef KernelOp::getArgName(unsigned index) {
  if (auto name = getArgAttrOfType<StringAttr>(index, getArgNameAttrName()))
    return name.getValue();
  return {};
}

void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  if (&region != &getBody() || region.empty())
    return;
  for (BlockArgument arg : region.front().getArguments()) {
    StringRef name = getArgName(arg.getArgNumber());
    if (!name.empty())
      setNameFn(arg, name);
  }
}

LaunchOp KernelOp::getLaunch() {
  for (Operation &op : getBody().front())
    if (auto launch = dyn_cast<LaunchOp>(op))
      return launch;
  return {};
}

/// The three groups of kernel arguments, in ABI order.
enum class ArgGroup { Tensor, Dim, Scalar };

LogicalResult KernelOp::verify() {
  if (getBody().empty())
    return emitOpError("must have a body");
  if (!getFunctionType().getResults().empty())
    return emitOpError("must not return values");

  ArgGroup previous = ArgGroup::Tensor;
  llvm::StringSet<> names;
  SmallVector<StringRef> dimOrder; // Symbolic dims by first appearance.
  llvm::StringSet<> seenDims;
  unsigned numDimArgs = 0;
  for (auto [index, type] : llvm::enumerate(getArgumentTypes())) {
    StringRef name = getArgName(index);
    if (name.empty())
      return emitOpError("argument ")
             << index << " has no '" << getArgNameAttrName() << "' attribute";
    if (!names.insert(name).second)
      return emitOpError("duplicate argument name '") << name << "'";

    ArgGroup group;
    if (auto buffer = dyn_cast<BufferType>(type)) {
      group = ArgGroup::Tensor;
      if (!buffer.isGlobal())
        return emitOpError("tensor argument '")
               << name << "' must be a global buffer";
      auto shape = getArgAttrOfType<ArrayAttr>(index, getArgShapeAttrName());
      if (!shape || shape.size() != static_cast<size_t>(buffer.getRank()))
        return emitOpError("tensor argument '")
               << name << "' needs a '" << getArgShapeAttrName()
               << "' array with one entry per dim";
      for (auto [dimIndex, entry] : llvm::enumerate(shape)) {
        int64_t typeDim = buffer.getDimSize(dimIndex);
        if (auto symbol = dyn_cast<StringAttr>(entry)) {
          if (!ShapedType::isDynamic(typeDim))
            return emitOpError("tensor argument '")
                   << name << "' dim " << dimIndex << " is named '"
                   << symbol.getValue() << "' but its type has extent "
                   << typeDim;
          if (seenDims.insert(symbol.getValue()).second)
            dimOrder.push_back(symbol.getValue());
          continue;
        }
        auto constant = dyn_cast<IntegerAttr>(entry);
        if (!constant || constant.getInt() != typeDim)
          return emitOpError("tensor argument '")
                 << name << "' dim " << dimIndex
                 << " must be a dim name or the type's extent";
      }
    } else if (type.isIndex()) {
      group = ArgGroup::Dim;
      if (numDimArgs >= dimOrder.size() || dimOrder[numDimArgs] != name)
        return emitOpError("dim argument '")
               << name
               << "' is out of order: dims follow the tensors, in order of "
                  "first appearance in their shapes";
      ++numDimArgs;
    } else if (type.isIntOrFloat()) {
      group = ArgGroup::Scalar;
    } else {
      return emitOpError("argument '")
             << name << "' has unsupported type " << type;
    }
    if (group < previous)
      return emitOpError("argument '")
             << name << "' is out of order: tensors, then dims, then scalars";
    previous = group;
  }
  if (numDimArgs != dimOrder.size())
    return emitOpError("symbolic dim '")
           << dimOrder[numDimArgs] << "' has no dim argument";

  unsigned numLaunches = llvm::count_if(
      getBody().front(), [](Operation &op) { return isa<LaunchOp>(op); });
  if (numLaunches != 1)
    return emitOpError("must contain exactly one tile.launch, found ")
           << numLaunches;
  return success();
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

void LaunchOp::build(OpBuilder &builder, OperationState &state, ValueRange grid,
                     int64_t threads) {
  state.addOperands(grid);
  state.addAttribute(getThreadsAttrName(state.name),
                     builder.getI64IntegerAttr(threads));
  buildBodyWithIndices<YieldOp>(builder, state.location, *state.addRegion(),
                                grid.size());
}

ParseResult LaunchOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> grid;
  SmallVector<OpAsmParser::Argument> indices;
  int64_t threads;
  Type indexType = parser.getBuilder().getIndexType();
  if (parser.parseKeyword("grid") ||
      parser.parseOperandList(grid, OpAsmParser::Delimiter::Paren) ||
      parser.resolveOperands(grid, indexType, result.operands) ||
      parser.parseKeyword("threads") || parser.parseLParen() ||
      parser.parseInteger(threads) || parser.parseRParen() ||
      parser.parseKeyword("as") ||
      parser.parseArgumentList(indices, OpAsmParser::Delimiter::Paren))
    return failure();
  for (OpAsmParser::Argument &index : indices)
    index.type = indexType;
  result.addAttribute(getThreadsAttrName(result.name),
                      parser.getBuilder().getI64IntegerAttr(threads));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, indices))
    return failure();
  ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void LaunchOp::print(OpAsmPrinter &printer) {
  printer << " grid(" << getGrid() << ") threads(" << getThreads() << ") as (";
  llvm::interleaveComma(getBlockIndices(), printer,
                        [&](BlockArgument index) { printer << index; });
  printer << ")";
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                           {getThreadsAttrName().getValue()});
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/false);
}

LogicalResult LaunchOp::verify() {
  if (getGrid().empty() || getGrid().size() > 3)
    return emitOpError("grid must have 1 to 3 dimensions, got ")
           << getGrid().size();
  int64_t threads = getThreads();
  if (threads < 32 || threads > 1024 || threads % 32 != 0)
    return emitOpError("threads must be a multiple of 32 between 32 and "
                       "1024, got ")
           << threads;
  if (getBody().front().getNumArguments() != getGrid().size())
    return emitOpError("body must have one block index per grid dimension");
  return success();
}

WarpSpecializeOp LaunchOp::getWarpSpecialize() {
  for (Operation &op : getBody().front())
    if (auto roles = dyn_cast<WarpSpecializeOp>(op))
      return roles;
  return {};
}

int64_t LaunchOp::getBlockThreads() {
  WarpSpecializeOp roles = getWarpSpecialize();
  return roles ? roles.getConsumerThreads() + roles.getProducerThreads()
               : getThreads();
}

//===----------------------------------------------------------------------===//
// Allocation ops
//===----------------------------------------------------------------------===//

/// Verifies an allocation's result scope and rank.
static LogicalResult verifyAlloc(Operation *op, MemoryScope expected,
                                 bool scalar) {
  auto type = cast<BufferType>(op->getResult(0).getType());
  if (type.getScope() != expected)
    return op->emitOpError("result must be a ")
           << stringifyMemoryScope(expected) << " buffer, got a "
           << stringifyMemoryScope(type.getScope()) << " buffer";
  if (scalar && type.getRank() != 0)
    return op->emitOpError("result must be a rank-0 buffer, got shape ")
           << formatShape(type.getShape());
  if (!scalar && type.getRank() == 0)
    return op->emitOpError("result must have at least one dim");
  return success();
}

LogicalResult AllocSharedOp::verify() {
  if (std::optional<int64_t> offset = getOffset(); offset && *offset < 0)
    return emitOpError("offset must be non-negative, got ") << *offset;
  return verifyAlloc(*this, MemoryScope::Shared, /*scalar=*/false);
}
LogicalResult AllocFragmentOp::verify() {
  return verifyAlloc(*this, MemoryScope::Fragment, /*scalar=*/false);
}
LogicalResult AllocLocalOp::verify() {
  return verifyAlloc(*this, MemoryScope::Local, /*scalar=*/false);
}
LogicalResult AllocVarOp::verify() {
  return verifyAlloc(*this, MemoryScope::Local, /*scalar=*/true);
}

//===----------------------------------------------------------------------===//
// LoadOp / StoreOp
//===----------------------------------------------------------------------===//

/// Verifies that an element access has one index per dim.
static LogicalResult verifyAccess(Operation *op, Value buffer,
                                  ValueRange indices) {
  int64_t rank = bufferType(buffer).getRank();
  if (static_cast<int64_t>(indices.size()) != rank)
    return op->emitOpError("expected ")
           << rank << " indices for a rank-" << rank << " buffer, got "
           << indices.size();
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyAccess(*this, getBuffer(), getIndices());
}
LogicalResult StoreOp::verify() {
  return verifyAccess(*this, getBuffer(), getIndices());
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

ArrayRef<int64_t> CopyOp::getExtent() {
  // The extent is the shape of the operand that is not indexed.
  if (!getSourceIndices().empty())
    return bufferType(getTarget()).getShape();
  return bufferType(getSource()).getShape();
}

LogicalResult StageViewOp::verify() {
  auto source = cast<BufferType>(getSource().getType());
  auto result = cast<BufferType>(getResult().getType());
  if (!source.isShared() || !result.isShared() || source.getRank() < 2)
    return emitOpError("needs a shared tile of rank 2 or more");
  if (result.getShape() != source.getShape().drop_front() ||
      result.getElementType() != source.getElementType() ||
      result.getLayout() != source.getLayout())
    return emitOpError("result must be one stage of the source (its shape "
                       "without the leading dimension, with the same element "
                       "type and layout)");
  return success();
}

LogicalResult CopyOp::verify() {
  if (failed(verifyBarrier()) || failed(verifyStaging()))
    return failure();
  BufferType source = bufferType(getSource());
  BufferType target = bufferType(getTarget());
  bool sourceIndexed = !getSourceIndices().empty();
  bool targetIndexed = !getTargetIndices().empty();
  if (sourceIndexed && targetIndexed)
    return emitOpError("at most one operand may be indexed with a region "
                       "origin");
  if (source.isGlobal() && target.isGlobal())
    return emitOpError("cannot copy from global to global memory");
  if (sourceIndexed && getSourceIndices().size() != source.getShape().size())
    return emitOpError("source region origin needs ")
           << source.getRank() << " indices, got " << getSourceIndices().size();
  if (targetIndexed && getTargetIndices().size() != target.getShape().size())
    return emitOpError("target region origin needs ")
           << target.getRank() << " indices, got " << getTargetIndices().size();

  if (!sourceIndexed && !targetIndexed) {
    if (source.getShape() != target.getShape())
      return emitOpError("source shape ")
             << formatShape(source.getShape()) << " and target shape "
             << formatShape(target.getShape()) << " differ";
    if (!source.hasStaticShape())
      return emitOpError("copy extent must be static; index the global "
                         "tensor with the region origin");
    return success();
  }

  BufferType indexed = sourceIndexed ? source : target;
  BufferType extentType = sourceIndexed ? target : source;
  if (!extentType.hasStaticShape())
    return emitOpError("copy extent must be static; index the global "
                       "tensor with the region origin");
  if (extentType.getRank() > indexed.getRank())
    return emitOpError("region rank ")
           << extentType.getRank() << " exceeds the rank " << indexed.getRank()
           << " of the indexed operand";
  int64_t offset = indexed.getRank() - extentType.getRank();
  for (auto [index, extent] : llvm::enumerate(extentType.getShape())) {
    int64_t dim = indexed.getDimSize(offset + index);
    if (!ShapedType::isDynamic(dim) && extent > dim)
      return emitOpError("region extent ")
             << formatShape(extentType.getShape())
             << " does not fit the indexed operand of shape "
             << formatShape(indexed.getShape());
  }
  return success();
}

/// Verifies that `barriers` (operand `name` of `op`) is a rank-1 shared tile
/// of i64 mbarriers.
static LogicalResult verifyBarriers(Operation *op, Value barriers) {
  BufferType type = bufferType(barriers);
  if (!type.isShared() || type.getRank() != 1 ||
      !type.getElementType().isInteger(64))
    return op->emitOpError("mbarriers must be a rank-1 shared tile of i64, "
                           "got ")
           << type;
  return success();
}

LogicalResult CopyOp::verifyBarrier() {
  if (!getBarrier()) {
    if (getBarrierIndex())
      return emitOpError("has a barrier index but no barrier");
    if (getMulticast())
      return emitOpError("with multicast needs a barrier (a TMA copy)");
    return success();
  }
  if (!getBarrierIndex())
    return emitOpError("needs the index of its mbarrier");
  if (failed(verifyBarriers(*this, getBarrier())))
    return failure();
  if (!bufferType(getSource()).isGlobal() ||
      !bufferType(getTarget()).isShared() || !getTargetIndices().empty())
    return emitOpError("with a barrier (a TMA copy) must copy a global "
                       "tensor region into a whole shared tile");
  auto roles = (*this)->getParentOfType<WarpSpecializeOp>();
  if (!roles || !roles.getProducer().isAncestor((*this)->getParentRegion()))
    return emitOpError("with a barrier (a TMA copy) must be in the producer "
                       "region of a 'tile.warp_specialize'");
  if (getMulticast() && roles.getClusterBlocks() == 1)
    return emitOpError("with multicast must be in a 'tile.warp_specialize' "
                       "with clusters of more than one block");
  return success();
}

/// True if `op` is inside the consumer region of a `tile.warp_specialize`.
static bool isInConsumers(Operation *op) {
  auto roles = op->getParentOfType<WarpSpecializeOp>();
  return roles && roles.getConsumer().isAncestor(op->getParentRegion());
}

LogicalResult CopyOp::verifyStaging() {
  if (!getStaging())
    return success();
  BufferType source = bufferType(getSource());
  BufferType target = bufferType(getTarget());
  BufferType staging = bufferType(getStaging());
  if (getBarrier() || getAsync())
    return emitOpError("with a staging tile (a TMA store) has no barrier and "
                       "is not async");
  if (!source.isFragment() || source.getRank() != 2 ||
      !getSourceIndices().empty() || !target.isGlobal() ||
      target.getRank() != 2)
    return emitOpError("with a staging tile (a TMA store) must copy a whole "
                       "rank-2 fragment into a rank-2 global tensor region");
  if (!staging.isShared() || staging.getRank() != 2 ||
      staging.getElementType() != target.getElementType() ||
      staging.getDimSize(1) != source.getDimSize(1) ||
      source.getDimSize(0) % staging.getDimSize(0) != 0)
    return emitOpError("staging tile must be a rank-2 shared tile of the "
                       "target's element type holding a band of the "
                       "fragment's rows (all its columns), got ")
           << staging;
  if (!isInConsumers(*this))
    return emitOpError("with a staging tile (a TMA store) must be in the "
                       "consumer region of a 'tile.warp_specialize'");
  return success();
}

//===----------------------------------------------------------------------===//
// Warp-specialized pipelines
//===----------------------------------------------------------------------===//

LogicalResult TmaStoreWaitOp::verify() {
  if (!isInConsumers(*this))
    return emitOpError("must be in the consumer region of a "
                       "'tile.warp_specialize'");
  return success();
}

LogicalResult MbarrierInitOp::verify() {
  if (failed(verifyBarriers(*this, getBarriers())))
    return failure();
  // PTX: the expected arrival count is in [1, 2^20 - 1].
  if (getCount() < 1 || getCount() >= (int64_t(1) << 20))
    return emitOpError("arrival count must be in [1, 2^20 - 1], got ")
           << getCount();
  if (!isa<LaunchOp>((*this)->getParentOp()))
    return emitOpError("must be at the top level of a launch body");
  return success();
}

LogicalResult MbarrierWaitOp::verify() {
  return verifyBarriers(*this, getBarriers());
}

LogicalResult MbarrierArriveOp::verify() {
  if (getCluster()) {
    auto roles = (*this)->getParentOfType<WarpSpecializeOp>();
    if (!roles || roles.getClusterBlocks() == 1)
      return emitOpError("on the cluster's mbarriers must be in a "
                         "'tile.warp_specialize' with clusters of more than "
                         "one block");
  }
  return verifyBarriers(*this, getBarriers());
}

LogicalResult TmaReadyOp::verify() {
  for (Value tensor : getTensors())
    if (!bufferType(tensor).isGlobal() || bufferType(tensor).getRank() < 1)
      return emitOpError("operands must be global tensors, got ")
             << tensor.getType();
  return success();
}

void WarpSpecializeOp::build(OpBuilder &builder, OperationState &state,
                             int64_t producerThreads) {
  state.addAttribute(getProducerThreadsAttrName(state.name),
                     builder.getI64IntegerAttr(producerThreads));
  for (int region = 0; region < 2; ++region)
    buildBodyWithIndices<YieldOp>(builder, state.location, *state.addRegion(),
                                  /*numIndices=*/0);
}

ParseResult WarpSpecializeOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  int64_t producerThreads = 0;
  if (parser.parseKeyword("producer_threads") ||
      parser.parseInteger(producerThreads))
    return failure();
  result.addAttribute("producer_threads",
                      parser.getBuilder().getI64IntegerAttr(producerThreads));
  if (succeeded(parser.parseOptionalKeyword("persistent")))
    result.addAttribute("persistent", parser.getBuilder().getUnitAttr());
  if (succeeded(parser.parseOptionalKeyword("consumer_groups"))) {
    int64_t groups = 0;
    if (parser.parseInteger(groups))
      return failure();
    result.addAttribute("consumer_groups",
                        parser.getBuilder().getI64IntegerAttr(groups));
  }
  if (succeeded(parser.parseOptionalKeyword("cluster"))) {
    int64_t blocks = 0;
    if (parser.parseInteger(blocks))
      return failure();
    result.addAttribute("cluster_blocks",
                        parser.getBuilder().getI64IntegerAttr(blocks));
  }
  for (int region = 0; region < 2; ++region) {
    if (region == 1 && parser.parseKeyword("consumer"))
      return failure();
    Region *body = result.addRegion();
    if (parser.parseRegion(*body))
      return failure();
    ensureTerminator(*body, parser.getBuilder(), result.location);
  }
  return parser.parseOptionalAttrDictWithKeyword(result.attributes);
}

void WarpSpecializeOp::print(OpAsmPrinter &printer) {
  printer << " producer_threads " << getProducerThreads() << ' ';
  if (getPersistent())
    printer << "persistent ";
  if (getConsumerGroups() != 1)
    printer << "consumer_groups " << getConsumerGroups() << ' ';
  if (getClusterBlocks() != 1)
    printer << "cluster " << getClusterBlocks() << ' ';
  printer.printRegion(getProducer(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/false);
  printer << " consumer ";
  printer.printRegion(getConsumer(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/false);
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      /*elidedAttrs=*/{getProducerThreadsAttrName(), getPersistentAttrName(),
                       getConsumerGroupsAttrName(),
                       getClusterBlocksAttrName()});
}

int64_t WarpSpecializeOp::getConsumerThreads() {
  return cast<LaunchOp>((*this)->getParentOp()).getThreads() *
         getConsumerGroups();
}

void TileLoopOp::build(OpBuilder &builder, OperationState &state) {
  buildBodyWithIndices<YieldOp>(builder, state.location, *state.addRegion(),
                                /*numIndices=*/1);
}

void TileLoopOp::build(OpBuilder &builder, OperationState &state, Value first,
                       int64_t step) {
  state.addOperands(first);
  state.addAttribute(getStepAttrName(state.name),
                     builder.getI64IntegerAttr(step));
  build(builder, state);
}

ParseResult TileLoopOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iteration;
  if (parser.parseArgument(iteration))
    return failure();
  iteration.type = parser.getBuilder().getIndexType();
  if (succeeded(parser.parseOptionalKeyword("from"))) {
    OpAsmParser::UnresolvedOperand first;
    int64_t step = 0;
    if (parser.parseOperand(first) ||
        parser.resolveOperand(first, parser.getBuilder().getIndexType(),
                              result.operands) ||
        parser.parseKeyword("step") || parser.parseInteger(step))
      return failure();
    result.addAttribute("step", parser.getBuilder().getI64IntegerAttr(step));
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iteration}))
    return failure();
  ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void TileLoopOp::print(OpAsmPrinter &printer) {
  printer << ' ' << getIteration();
  if (getFirst())
    printer << " from " << getFirst() << " step " << getStep();
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                           /*elidedAttrs=*/{getStepAttrName()});
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/false);
}

LogicalResult WarpSpecializeOp::verify() {
  int64_t producers = getProducerThreads();
  if (producers < 128 || producers % 128 != 0)
    return emitOpError("producer threads must be a positive multiple of 128 "
                       "(whole warpgroups), got ")
           << producers;
  if (getConsumerGroups() < 1)
    return emitOpError("needs at least one consumer group, got ")
           << getConsumerGroups();
  int64_t cluster = getClusterBlocks();
  if (cluster < 1 || cluster > 8 || !llvm::isPowerOf2_64(cluster))
    return emitOpError("clusters must have 1, 2, 4 or 8 blocks, got ")
           << cluster;
  if (cluster > 1 && !getPersistent())
    return emitOpError("with clusters must be persistent");
  if (getConsumerThreads() + producers > 1024)
    return emitOpError("a block of ")
           << getConsumerThreads() << " + " << producers
           << " threads exceeds 1024 threads";
  auto launch = cast<LaunchOp>((*this)->getParentOp());
  if ((*this)->getNextNode() != launch.getBody().front().getTerminator())
    return emitOpError("must end the launch body");
  return success();
}

LogicalResult TileLoopOp::verify() {
  if (getStep() < 1)
    return emitOpError("step must be positive, got ") << getStep();
  if (getStep() != 1 && !getFirst())
    return emitOpError("with a step needs its first tile");
  return success();
}

/// The persistent `tile.warp_specialize` around `op`, or null.
static WarpSpecializeOp persistentRoles(Operation *op) {
  auto roles = op->getParentOfType<WarpSpecializeOp>();
  return roles && roles.getPersistent() ? roles : WarpSpecializeOp();
}

LogicalResult TileCountOp::verify() {
  if (!persistentRoles(*this))
    return emitOpError(
        "must be in the roles of a persistent 'tile.warp_specialize'");
  return success();
}

LogicalResult ConsumerGroupOp::verify() {
  auto roles = (*this)->getParentOfType<WarpSpecializeOp>();
  if (!roles || !roles.getConsumer().isAncestor((*this)->getParentRegion()))
    return emitOpError(
        "must be in the consumer region of a 'tile.warp_specialize'");
  return success();
}

LogicalResult NamedBarrierOp::verify() {
  if (getThreads() < 32 || getThreads() % 32 != 0 || getThreads() > 1024)
    return emitOpError("threads must be whole warps, 32 to 1024, got ")
           << getThreads();
  return success();
}

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

/// Returns true if `type` can be a tensor-core GEMM input element type.
static bool isGemmInputType(Type type) {
  return type.isF16() || type.isBF16() || type.isF32() || type.isInteger(8) ||
         isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

LogicalResult GemmOp::verify() {
  if (failed(verifyScope(*this, "A", getA(),
                         {MemoryScope::Shared, MemoryScope::Fragment})) ||
      failed(verifyScope(*this, "B", getB(),
                         {MemoryScope::Shared, MemoryScope::Fragment})) ||
      failed(verifyScope(*this, "C", getC(), {MemoryScope::Fragment})))
    return failure();
  BufferType a = bufferType(getA()), b = bufferType(getB()),
             c = bufferType(getC());
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError("A, B and C must be rank-2 tiles, got shapes ")
           << formatShape(a.getShape()) << ", " << formatShape(b.getShape())
           << " and " << formatShape(c.getShape());
  int64_t m = a.getDimSize(getTransposeA() ? 1 : 0);
  int64_t kA = a.getDimSize(getTransposeA() ? 0 : 1);
  int64_t kB = b.getDimSize(getTransposeB() ? 1 : 0);
  int64_t n = b.getDimSize(getTransposeB() ? 0 : 1);
  if (kA != kB)
    return emitOpError("reduction extents differ: A ")
           << formatShape(a.getShape()) << " has K = " << kA << ", B "
           << formatShape(b.getShape()) << " has K = " << kB;
  if (c.getDimSize(0) != m || c.getDimSize(1) != n)
    return emitOpError("C has shape ")
           << formatShape(c.getShape()) << " but A x B is [" << m << ", " << n
           << "]";
  Type in = a.getElementType();
  if (in != b.getElementType())
    return emitOpError("A and B element types differ: ")
           << in << " vs " << b.getElementType();
  if (!isGemmInputType(in))
    return emitOpError("unsupported input element type ")
           << in << " (expected f16, bf16, f32, i8, f8E4M3FN or f8E5M2)";
  Type acc = c.getElementType();
  bool accOk = in.isInteger(8) ? acc.isInteger(32)
                               : (acc.isF32() || (in.isF16() && acc.isF16()));
  if (!accOk)
    return emitOpError("accumulator element type ")
           << acc << " does not match inputs of type " << in << " (expected "
           << (in.isInteger(8) ? "i32" : "f32") << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// FillOp / ClearOp
//===----------------------------------------------------------------------===//

/// The scopes that `fill` and `clear` accept.
static constexpr MemoryScope kOnChipScopes[] = {
    MemoryScope::Shared, MemoryScope::Fragment, MemoryScope::Local};

LogicalResult FillOp::verify() {
  if (failed(verifyScope(*this, "buffer", getBuffer(), kOnChipScopes)))
    return failure();
  Type elementType = bufferType(getBuffer()).getElementType();
  if (getValue().getType() != elementType)
    return emitOpError("value type ")
           << getValue().getType() << " differs from the element type "
           << elementType;
  return success();
}

LogicalResult ClearOp::verify() {
  return verifyScope(*this, "buffer", getBuffer(), kOnChipScopes);
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  if (failed(verifyScope(*this, "source", getSource(),
                         {MemoryScope::Fragment, MemoryScope::Shared})) ||
      failed(verifyScope(*this, "target", getTarget(), kOnChipScopes)))
    return failure();
  BufferType source = bufferType(getSource());
  BufferType target = bufferType(getTarget());
  int64_t dim = getDim();
  if (dim < 0 || dim >= source.getRank())
    return emitOpError("dim ") << dim << " is out of range for a rank-"
                               << source.getRank() << " source";
  SmallVector<int64_t> removed(source.getShape());
  removed.erase(removed.begin() + dim);
  if (removed.empty())
    removed.push_back(1);
  SmallVector<int64_t> kept(source.getShape());
  kept[dim] = 1;
  if (target.getShape() != ArrayRef<int64_t>(removed) &&
      target.getShape() != ArrayRef<int64_t>(kept))
    return emitOpError("target shape ")
           << formatShape(target.getShape()) << " must be "
           << formatShape(removed) << " (source "
           << formatShape(source.getShape()) << " reduced along dim " << dim
           << ")";
  bool sourceFloat = isa<FloatType>(source.getElementType());
  if (sourceFloat != isa<FloatType>(target.getElementType()))
    return emitOpError("source element type ")
           << source.getElementType() << " and target element type "
           << target.getElementType() << " must both be float or integer";
  if (Value scratch = getScratch()) {
    BufferType scratchType = bufferType(scratch);
    if (!scratchType.isShared() || scratchType.getRank() != 1)
      return emitOpError("scratch must be a rank-1 shared tile");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ParallelOp
//===----------------------------------------------------------------------===//

void ParallelOp::build(OpBuilder &builder, OperationState &state,
                       ArrayRef<int64_t> extents) {
  state.addAttribute(getExtentsAttrName(state.name),
                     builder.getDenseI64ArrayAttr(extents));
  buildBodyWithIndices<YieldOp>(builder, state.location, *state.addRegion(),
                                extents.size());
}

ParseResult ParallelOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> indices;
  SmallVector<int64_t> extents;
  if (parser.parseArgumentList(indices, OpAsmParser::Delimiter::Paren) ||
      parser.parseKeyword("in") ||
      parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(extents.emplace_back());
      }))
    return failure();
  for (OpAsmParser::Argument &index : indices)
    index.type = parser.getBuilder().getIndexType();
  result.addAttribute(getExtentsAttrName(result.name),
                      parser.getBuilder().getDenseI64ArrayAttr(extents));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, indices))
    return failure();
  ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void ParallelOp::print(OpAsmPrinter &printer) {
  printer << " (";
  llvm::interleaveComma(getInductionVars(), printer,
                        [&](BlockArgument index) { printer << index; });
  printer << ") in [";
  llvm::interleaveComma(getExtents(), printer);
  printer << "]";
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                           {getExtentsAttrName().getValue()});
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/false);
}

SmallVector<Region *> ParallelOp::getLoopRegions() { return {&getBody()}; }

std::optional<SmallVector<Value>> ParallelOp::getLoopInductionVars() {
  return SmallVector<Value>(getInductionVars());
}

std::optional<SmallVector<OpFoldResult>> ParallelOp::getLoopLowerBounds() {
  Builder builder(getContext());
  return SmallVector<OpFoldResult>(getExtents().size(),
                                   builder.getIndexAttr(0));
}

std::optional<SmallVector<OpFoldResult>> ParallelOp::getLoopUpperBounds() {
  Builder builder(getContext());
  return llvm::map_to_vector(getExtents(), [&](int64_t extent) {
    return OpFoldResult(builder.getIndexAttr(extent));
  });
}

std::optional<SmallVector<OpFoldResult>> ParallelOp::getLoopSteps() {
  Builder builder(getContext());
  return SmallVector<OpFoldResult>(getExtents().size(),
                                   builder.getIndexAttr(1));
}

LogicalResult ParallelOp::verify() {
  if (getExtents().empty())
    return emitOpError("needs at least one extent");
  for (auto [index, extent] : llvm::enumerate(getExtents()))
    if (extent <= 0)
      return emitOpError("extent ")
             << index << " must be positive, got " << extent;
  if (getBody().front().getNumArguments() != getExtents().size())
    return emitOpError("body must have one index per extent");
  return success();
}

//===----------------------------------------------------------------------===//
// Counted loops: PipelinedOp, SerialOp, UnrollOp
//===----------------------------------------------------------------------===//

/// Parses `%i to %ub [stages N] attr-dict region` into `result`.
static ParseResult parseCountedLoop(OpAsmParser &parser, OperationState &result,
                                    StringRef stagesAttrName) {
  OpAsmParser::Argument index;
  OpAsmParser::UnresolvedOperand upperBound;
  Type indexType = parser.getBuilder().getIndexType();
  if (parser.parseArgument(index) || parser.parseKeyword("to") ||
      parser.parseOperand(upperBound) ||
      parser.resolveOperand(upperBound, indexType, result.operands))
    return failure();
  index.type = indexType;
  if (!stagesAttrName.empty()) {
    int64_t stages;
    if (parser.parseKeyword("stages") || parser.parseInteger(stages))
      return failure();
    result.addAttribute(stagesAttrName,
                        parser.getBuilder().getI64IntegerAttr(stages));
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {index}))
    return failure();
  OpBuilder builder(parser.getContext());
  if (body->empty())
    return parser.emitError(parser.getCurrentLocation(), "loop needs a body");
  if (body->front().empty() ||
      !body->front().back().hasTrait<OpTrait::IsTerminator>()) {
    builder.setInsertionPointToEnd(&body->front());
    YieldOp::create(builder, result.location);
  }
  return success();
}

/// Prints a counted loop in the form parsed by parseCountedLoop.
static void printCountedLoop(OpAsmPrinter &printer, Operation *op,
                             BlockArgument index, Value upperBound,
                             std::optional<int64_t> stages, Region &body) {
  printer << ' ' << index << " to " << upperBound;
  SmallVector<StringRef, 1> elided;
  if (stages) {
    printer << " stages " << *stages;
    elided.push_back("stages");
  }
  printer.printOptionalAttrDictWithKeyword(op->getAttrs(), elided);
  printer << ' ';
  printer.printRegion(body, /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/false);
}

/// Creates a counted loop's body with its induction variable.
static void buildCountedLoop(OpBuilder &builder, OperationState &state,
                             Value upperBound) {
  state.addOperands(upperBound);
  buildBodyWithIndices<YieldOp>(builder, state.location, *state.addRegion(),
                                /*numIndices=*/1);
}

void PipelinedOp::build(OpBuilder &builder, OperationState &state,
                        Value upperBound, int64_t stages) {
  state.addAttribute(getStagesAttrName(state.name),
                     builder.getI64IntegerAttr(stages));
  buildCountedLoop(builder, state, upperBound);
}

ParseResult PipelinedOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseCountedLoop(parser, result,
                          getStagesAttrName(result.name).getValue());
}

void PipelinedOp::print(OpAsmPrinter &printer) {
  printCountedLoop(printer, *this, getInductionVar(), getUpperBound(),
                   getStages(), getBody());
}

LogicalResult PipelinedOp::verify() {
  if (getStages() < 1 || getStages() > 8)
    return emitOpError("stages must be between 1 and 8, got ") << getStages();
  return success();
}

void SerialOp::build(OpBuilder &builder, OperationState &state,
                     Value upperBound) {
  buildCountedLoop(builder, state, upperBound);
}

ParseResult SerialOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseCountedLoop(parser, result, /*stagesAttrName=*/"");
}

void SerialOp::print(OpAsmPrinter &printer) {
  printCountedLoop(printer, *this, getInductionVar(), getUpperBound(),
                   std::nullopt, getBody());
}

void UnrollOp::build(OpBuilder &builder, OperationState &state,
                     Value upperBound) {
  buildCountedLoop(builder, state, upperBound);
}

ParseResult UnrollOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseCountedLoop(parser, result, /*stagesAttrName=*/"");
}

void UnrollOp::print(OpAsmPrinter &printer) {
  printCountedLoop(printer, *this, getInductionVar(), getUpperBound(),
                   std::nullopt, getBody());
}

LogicalResult UnrollOp::verify() {
  if (!matchPattern(getUpperBound(), m_Constant()))
    return emitOpError("trip count must be a compile-time constant");
  return success();
}

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

void IfOp::build(OpBuilder &builder, OperationState &state, Value condition,
                 bool withElse) {
  state.addOperands(condition);
  buildBodyWithIndices<YieldOp>(builder, state.location, *state.addRegion(),
                                /*numIndices=*/0);
  Region *elseRegion = state.addRegion();
  if (withElse)
    buildBodyWithIndices<YieldOp>(builder, state.location, *elseRegion,
                                  /*numIndices=*/0);
}

ParseResult IfOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand condition;
  if (parser.parseOperand(condition) ||
      parser.resolveOperand(condition, parser.getBuilder().getI1Type(),
                            result.operands))
    return failure();
  Region *thenRegion = result.addRegion();
  Region *elseRegion = result.addRegion();
  if (parser.parseRegion(*thenRegion))
    return failure();
  ensureTerminator(*thenRegion, parser.getBuilder(), result.location);
  if (succeeded(parser.parseOptionalKeyword("else"))) {
    if (parser.parseRegion(*elseRegion))
      return failure();
    ensureTerminator(*elseRegion, parser.getBuilder(), result.location);
  }
  return parser.parseOptionalAttrDictWithKeyword(result.attributes);
}

void IfOp::print(OpAsmPrinter &printer) {
  printer << ' ' << getCondition() << ' ';
  printer.printRegion(getThenRegion(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/false);
  if (!getElseRegion().empty()) {
    printer << " else ";
    printer.printRegion(getElseRegion(), /*printEntryBlockArgs=*/false,
                        /*printBlockTerminators=*/false);
  }
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs());
}

//===----------------------------------------------------------------------===//
// Miscellaneous ops
//===----------------------------------------------------------------------===//

LogicalResult PrintOp::verify() {
  if (getValue() && !getValue().getType().isIntOrIndexOrFloat())
    return emitOpError("can only print integer, index or float scalars, got ")
           << getValue().getType();
  return success();
}

LogicalResult UseSwizzleOp::verify() {
  if (getPanel() < 1)
    return emitOpError("panel size must be positive, got ") << getPanel();
  auto launch = (*this)->getParentOfType<LaunchOp>();
  if (!launch)
    return success(); // ParentOneOf reports it.
  if (launch.getBlockIndices().size() < 2)
    return emitOpError("needs a launch with a y dimension to rasterize, got a "
                       "1-D launch");
  // The launch body, or the body of the tile loop of a persistent launch.
  Block &body = *(*this)->getBlock();
  for (Operation &op : body) {
    if (&op == getOperation())
      break;
    if (isa<UseSwizzleOp>(op)) {
      InFlightDiagnostic diag =
          emitOpError("is given more than once in a launch");
      diag.attachNote(op.getLoc()) << "first given here";
      return diag;
    }
  }
  // Rasterization renumbers the blocks from this point on.
  for (BlockArgument index : launch.getBlockIndices())
    for (Operation *user : index.getUsers()) {
      Operation *ancestor = body.findAncestorOpInBlock(*user);
      if (ancestor && ancestor->isBeforeInBlock(getOperation())) {
        InFlightDiagnostic diag =
            emitOpError("must come before every use of the block indices");
        diag.attachNote(user->getLoc())
            << "block index " << index.getArgNumber() << " used here";
        return diag;
      }
    }
  return success();
}

LogicalResult AnnotateLayoutOp::verify() {
  return verifyScope(*this, "buffer", getBuffer(),
                     {MemoryScope::Shared, MemoryScope::Fragment});
}

#define GET_OP_CLASSES
#include "dialects/Tile/TileOps.cpp.inc"

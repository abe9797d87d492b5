//===- TileTypes.cpp - Types of the tile dialect --------------------------===//
//
// The `!tile.buffer` type: parsing, printing and verification.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#define GET_TYPEDEF_CLASSES
#include "dialects/Tile/TileTypes.cpp.inc"

void TileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/Tile/TileTypes.cpp.inc"
      >();
}

Type BufferType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma())
    return {};
  SMLoc scopeLoc = parser.getCurrentLocation();
  StringRef scopeName;
  if (parser.parseKeyword(&scopeName))
    return {};
  std::optional<MemoryScope> scope = symbolizeMemoryScope(scopeName);
  if (!scope) {
    parser.emitError(scopeLoc, "unknown memory scope '")
        << scopeName << "' (expected global, shared, fragment or local)";
    return {};
  }
  Attribute layout;
  if (succeeded(parser.parseOptionalComma()) && parser.parseAttribute(layout))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<BufferType>(parser.getContext(), shape, elementType,
                                       *scope, layout);
}

void BufferType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t dim : getShape()) {
    if (ShapedType::isDynamic(dim))
      printer << '?';
    else
      printer << dim;
    printer << 'x';
  }
  printer << getElementType() << ", " << stringifyMemoryScope(getScope());
  if (getLayout())
    printer << ", " << getLayout();
  printer << '>';
}

LogicalResult BufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> shape, Type elementType,
                                 MemoryScope scope, Attribute layout) {
  if (!elementType.isIntOrFloat())
    return emitError() << "buffer element type must be an integer or float "
                          "type, got "
                       << elementType;
  for (auto [index, dim] : llvm::enumerate(shape)) {
    if (ShapedType::isDynamic(dim)) {
      if (scope != MemoryScope::Global)
        return emitError() << "only global buffers may have symbolic dims; "
                           << stringifyMemoryScope(scope) << " buffer dim "
                           << index << " is '?'";
      continue;
    }
    if (dim < 0 || (dim == 0 && scope != MemoryScope::Global))
      return emitError() << "buffer dim " << index << " must be positive, got "
                         << dim;
  }
  if (!layout || isa<LayoutAttr>(layout))
    return success();
  if (isa<DistributedLayoutAttrInterface>(layout)) {
    if (scope != MemoryScope::Fragment)
      return emitError() << "a thread layout such as " << layout
                         << " needs a fragment buffer";
    return success();
  }
  if (auto shared = dyn_cast<SharedLayoutAttrInterface>(layout)) {
    if (scope != MemoryScope::Shared)
      return emitError() << "a shared-memory layout such as " << layout
                         << " needs a shared buffer";
    return shared.verifyShape(emitError, shape);
  }
  return emitError() << "buffer layout must be a #tile.layout, a thread "
                        "layout or a shared-memory layout, got "
                     << layout;
}

BufferType BufferType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                 Type elementType) const {
  return BufferType::get(getContext(), shape ? *shape : getShape(),
                         elementType ? elementType : getElementType(),
                         getScope(), getLayout());
}

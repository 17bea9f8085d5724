//===- CacheHints.cpp - the two spellings of load/store cache hints -------===//
//
// Triton 3.6-3.8 print a load's or store's hints as clauses before its
// attributes (`cacheModifier = cg evictionPolicy = evict_last`); 3.9 as an
// attribute (`{cachePolicy = #tt.cache_policy<cache_modifier = cg,
// eviction_policy = evict_last>}`). Both set the ops' `cache` and `evict`
// attributes, so nothing after the parser sees which one was written; the
// printer uses the 3.6 spelling unless the context parsed only the 3.9 one.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Triton/IR/Dialect.h"

using namespace mlir;
using namespace kiln::tt;

namespace {

constexpr StringLiteral kCache = "cache", kEvict = "evict", kPolicy = "cachePolicy";

TritonDialect &dialectOf(MLIRContext *ctx) {
  return *ctx->getLoadedDialect<TritonDialect>();
}

/// One `name = <enum keyword>` clause of Triton 3.6's spelling; errors
/// worded as the declarative parser words them.
template <typename Enum, typename Attr>
ParseResult parseClause(OpAsmParser &parser, OperationState &result, StringRef attrName,
                        std::optional<Enum> (*symbolize)(StringRef),
                        std::optional<Enum> (*symbolizeInt)(uint32_t), uint32_t maxValue) {
  if (result.attributes.get(attrName))
    return parser.emitError(parser.getCurrentLocation(), "the '")
           << attrName << "' clause is given twice";
  std::string keyword;
  if (parser.parseEqual())
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  std::optional<Enum> value;
  if (succeeded(parser.parseOptionalKeywordOrString(&keyword)))
    value = symbolize(keyword);
  if (!value) {
    InFlightDiagnostic diag = parser.emitError(loc)
                              << "expected string or keyword containing one of the following "
                                 "enum values for attribute '"
                              << attrName << "' [";
    bool first = true;
    for (uint32_t i = 0; i <= maxValue; ++i)
      if (std::optional<Enum> e = symbolizeInt(i)) {
        diag << (first ? "" : ", ") << stringifyEnum(*e);
        first = false;
      }
    return diag << "]";
  }
  result.addAttribute(attrName, Attr::get(parser.getContext(), *value));
  return success();
}

/// The pointer types tt.load and tt.store take (their ODS constraint).
bool isLoadStorePointer(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    auto ptr = dyn_cast<PointerType>(tensor.getElementType());
    return tensor.hasStaticShape() && ptr && !isa<RankedTensorType>(ptr.getPointeeType());
  }
  auto ptr = dyn_cast<PointerType>(type);
  if (!ptr)
    return false;
  auto block = dyn_cast<RankedTensorType>(ptr.getPointeeType());
  return !block || block.hasStaticShape();
}

ParseResult parsePointerType(OpAsmParser &parser, Type &type) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseType(type))
    return failure();
  if (isLoadStorePointer(type))
    return success();
  return parser.emitError(loc, "'ptr' must be pointer to a scalar or statically shaped tensor "
                               "of pointer to a scalar values or pointer to a tensor block, "
                               "but got ")
         << type;
}

/// The hint clauses (in either order), then the attribute dictionary, where
/// a `cachePolicy` is taken apart into `cache` and `evict`.
ParseResult parseHintsAndAttributes(OpAsmParser &parser, OperationState &result) {
  bool clauses = false;
  for (;;) {
    if (succeeded(parser.parseOptionalKeyword("cacheModifier"))) {
      if (parseClause<CacheModifier, CacheModifierAttr>(
              parser, result, kCache, symbolizeCacheModifier, symbolizeCacheModifier,
              getMaxEnumValForCacheModifier()))
        return failure();
    } else if (succeeded(parser.parseOptionalKeyword("evictionPolicy"))) {
      if (parseClause<EvictionPolicy, EvictionPolicyAttr>(
              parser, result, kEvict, symbolizeEvictionPolicy, symbolizeEvictionPolicy,
              getMaxEnumValForEvictionPolicy()))
        return failure();
    } else {
      break;
    }
    clauses = true;
  }
  SMLoc attrLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  TritonDialect &dialect = dialectOf(parser.getContext());
  Attribute policy = result.attributes.erase(kPolicy);
  if (!policy) {
    if (clauses)
      dialect.noteParsed(TritonDialect::Spelling::CacheHints, /*newer=*/false);
    return success();
  }
  auto hints = dyn_cast<CachePolicyAttr>(policy);
  if (!hints)
    return parser.emitError(attrLoc, "cachePolicy must be a #tt.cache_policy, got ") << policy;
  if (result.attributes.get(kCache) || result.attributes.get(kEvict))
    return parser.emitError(attrLoc, "cache hints given both as clauses and as cachePolicy");
  result.addAttribute(kCache, CacheModifierAttr::get(parser.getContext(),
                                                     hints.getCacheModifier()));
  result.addAttribute(kEvict, EvictionPolicyAttr::get(parser.getContext(),
                                                      hints.getEvictionPolicy()));
  dialect.noteParsed(TritonDialect::Spelling::CacheHints, /*newer=*/true);
  return success();
}

/// The hints in the context's spelling, then the other attributes that are
/// not at their defaults.
void printHintsAndAttributes(OpAsmPrinter &printer, Operation *op, CacheModifier cache,
                             EvictionPolicy evict) {
  SmallVector<StringRef> elided{kCache, kEvict, "operandSegmentSizes"};
  if (auto isVolatile = op->getAttrOfType<BoolAttr>("isVolatile"); isVolatile &&
                                                                    !isVolatile.getValue())
    elided.push_back("isVolatile");
  if (auto check = op->getAttrOfType<DenseI32ArrayAttr>("boundaryCheck"); check &&
                                                                          check.empty())
    elided.push_back("boundaryCheck");
  bool hinted = cache != CacheModifier::NONE || evict != EvictionPolicy::NORMAL;
  if (!dialectOf(op->getContext()).printsNewer(TritonDialect::Spelling::CacheHints)) {
    if (cache != CacheModifier::NONE)
      printer << " cacheModifier = " << stringifyCacheModifier(cache);
    if (evict != EvictionPolicy::NORMAL)
      printer << " evictionPolicy = " << stringifyEvictionPolicy(evict);
    printer.printOptionalAttrDict(op->getAttrs(), elided);
    return;
  }
  NamedAttrList attrs(op->getAttrs());
  if (hinted)
    attrs.set(kPolicy, CachePolicyAttr::get(op->getContext(), cache, evict));
  printer.printOptionalAttrDict(attrs.getAttrs(), elided);
}

} // namespace

//===----------------------------------------------------------------------===//
// tt.load: $ptr (, $mask)? (, $other)? <hints> attr-dict : type($ptr)
//===----------------------------------------------------------------------===//

ParseResult LoadOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand ptr, mask, other;
  bool hasMask = false, hasOther = false;
  if (parser.parseOperand(ptr))
    return failure();
  if (succeeded(parser.parseOptionalComma())) {
    hasMask = true;
    if (parser.parseOperand(mask))
      return failure();
    if (succeeded(parser.parseOptionalComma())) {
      hasOther = true;
      if (parser.parseOperand(other))
        return failure();
    }
  }
  if (parseHintsAndAttributes(parser, result) || parser.parseColon())
    return failure();
  Type ptrType;
  if (parsePointerType(parser, ptrType))
    return failure();
  Type pointee = getPointeeType(ptrType);
  if (parser.resolveOperand(ptr, ptrType, result.operands) ||
      (hasMask && parser.resolveOperand(mask, getI1SameShape(pointee), result.operands)) ||
      (hasOther && parser.resolveOperand(other, pointee, result.operands)))
    return failure();
  result.getOrAddProperties<Properties>().operandSegmentSizes = {1, int32_t(hasMask),
                                                                 int32_t(hasOther)};
  result.addTypes(pointee);
  return success();
}

void LoadOp::print(OpAsmPrinter &printer) {
  printer << " " << getPtr();
  if (getMask())
    printer << ", " << getMask();
  if (getOther())
    printer << ", " << getOther();
  printHintsAndAttributes(printer, *this, getCache(), getEvict());
  printer << " : " << getPtr().getType();
}

//===----------------------------------------------------------------------===//
// tt.store: $ptr, $value (, $mask)? <hints> attr-dict : type($ptr)
//===----------------------------------------------------------------------===//

ParseResult StoreOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand ptr, value, mask;
  bool hasMask = false;
  if (parser.parseOperand(ptr) || parser.parseComma() || parser.parseOperand(value))
    return failure();
  if (succeeded(parser.parseOptionalComma())) {
    hasMask = true;
    if (parser.parseOperand(mask))
      return failure();
  }
  if (parseHintsAndAttributes(parser, result) || parser.parseColon())
    return failure();
  Type ptrType;
  if (parsePointerType(parser, ptrType))
    return failure();
  Type pointee = getPointeeType(ptrType);
  return failure(parser.resolveOperand(ptr, ptrType, result.operands) ||
                 parser.resolveOperand(value, pointee, result.operands) ||
                 (hasMask &&
                  parser.resolveOperand(mask, getI1SameShape(pointee), result.operands)));
}

void StoreOp::print(OpAsmPrinter &printer) {
  printer << " " << getPtr() << ", " << getValue();
  if (getMask())
    printer << ", " << getMask();
  printHintsAndAttributes(printer, *this, getCache(), getEvict());
  printer << " : " << getPtr().getType();
}

//===----------------------------------------------------------------------===//
// tt.descriptor_load: $desc [ $indices ] <hints> attr-dict : type($desc) -> type($result)
//===----------------------------------------------------------------------===//

ParseResult DescriptorLoadOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand desc;
  SmallVector<OpAsmParser::UnresolvedOperand> indices;
  Type descType, resultType;
  if (parser.parseOperand(desc) ||
      parser.parseOperandList(indices, OpAsmParser::Delimiter::Square) ||
      parseHintsAndAttributes(parser, result) || parser.parseColonType(descType) ||
      parser.parseArrow() || parser.parseType(resultType))
    return failure();
  if (parser.resolveOperand(desc, descType, result.operands) ||
      parser.resolveOperands(indices, parser.getBuilder().getI32Type(), result.operands))
    return failure();
  result.addTypes(resultType);
  return success();
}

void DescriptorLoadOp::print(OpAsmPrinter &printer) {
  printer << " " << getDesc() << "[";
  printer.printOperands(getIndices());
  printer << "]";
  printHintsAndAttributes(printer, *this, getCache(), getEvict());
  printer << " : " << getDesc().getType() << " -> " << getType();
}

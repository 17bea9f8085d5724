//===- Ops.cpp - tt dialect ops: builders, verifiers, interfaces ----------===//
//
// Folders and canonicalisation patterns live in Canonicalize.cpp; dot,
// reduce, scan and map_elementwise in StructuredOps.cpp.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/Triton/IR/InlineAsm.h"

#include "VerifierSupport.h"

#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kiln::tt;
using kiln::tt::detail::shapeString;

#define GET_OP_CLASSES
#include "kiln/Dialect/Triton/IR/Ops.cpp.inc"

namespace {

/// Shape of a tensor type, or an empty shape for a scalar.
ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

/// Checks that `order` is a permutation of [0, rank).
LogicalResult verifyPermutation(Operation *op, ArrayRef<int32_t> order, size_t rank,
                                StringRef what) {
  if (order.size() != rank)
    return op->emitOpError() << what << " has " << order.size()
                             << " entries but the tensor has rank " << rank;
  SmallVector<bool> seen(rank, false);
  for (int32_t d : order) {
    if (d < 0 || static_cast<size_t>(d) >= rank || seen[d])
      return op->emitOpError() << what << " must be a permutation of [0, " << rank
                               << "), got " << shapeString(SmallVector<int64_t>(
                                                  order.begin(), order.end()));
    seen[d] = true;
  }
  return success();
}

LogicalResult verifyDescriptorIndices(Operation *op, TensorDescType desc,
                                      size_t numIndices) {
  size_t rank = desc.getBlockType().getRank();
  if (numIndices != rank)
    return op->emitOpError() << "expects " << rank << " indices for a rank-" << rank
                             << " descriptor, got " << numIndices;
  return success();
}

/// A descriptor block and the tensor moved through it must have the same
/// element type (signedness aside: the tensor is signless) and number of
/// elements (Triton lets leading 1s be dropped).
LogicalResult verifyDescriptorBlock(Operation *op, TensorDescType desc,
                                    RankedTensorType tensor, StringRef what) {
  RankedTensorType block = desc.getSignlessBlockType();
  if (block.getElementType() != tensor.getElementType())
    return op->emitOpError() << what << " element type " << tensor.getElementType()
                             << " does not match the descriptor's "
                             << desc.getBlockType().getElementType();
  if (block.getNumElements() != tensor.getNumElements())
    return op->emitOpError() << what << " shape " << shapeString(tensor.getShape())
                             << " does not match the descriptor block "
                             << shapeString(block.getShape());
  return success();
}

LogicalResult verifyGatherScatterShape(Operation *op, TensorDescType desc,
                                       RankedTensorType xOffsets,
                                       RankedTensorType tensor, StringRef what) {
  RankedTensorType block = desc.getSignlessBlockType();
  if (block.getRank() != 2 || block.getShape()[0] != 1)
    return op->emitOpError() << "descriptor block must have shape [1, N], got "
                             << shapeString(block.getShape());
  if (xOffsets.getRank() != 1)
    return op->emitOpError() << "x_offsets must be a 1-D tensor";
  if (tensor.getRank() != 2 || tensor.getShape()[0] != xOffsets.getShape()[0] ||
      tensor.getShape()[1] != block.getShape()[1])
    return op->emitOpError() << what << " must have shape ["
                             << xOffsets.getShape()[0] << ", " << block.getShape()[1]
                             << "], got " << shapeString(tensor.getShape());
  if (tensor.getElementType() != block.getElementType())
    return op->emitOpError() << what << " element type must match the descriptor's";
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

LogicalResult BitcastOp::verify() {
  Type src = mlir::getElementTypeOrSelf(getSrc().getType());
  Type dst = mlir::getElementTypeOrSelf(getType());
  // Pointers only reinterpret as pointers into the same address space;
  // ptr_to_int and int_to_ptr convert between pointers and integers.
  auto srcPtr = dyn_cast<PointerType>(src), dstPtr = dyn_cast<PointerType>(dst);
  if (srcPtr || dstPtr) {
    if (!srcPtr || !dstPtr)
      return emitOpError() << "cannot bitcast between a pointer and a non-pointer ("
                           << src << " to " << dst << "); use ptr_to_int or int_to_ptr";
    if (srcPtr.getAddressSpace() != dstPtr.getAddressSpace())
      return emitOpError() << "cannot bitcast a pointer from address space "
                           << srcPtr.getAddressSpace() << " to address space "
                           << dstPtr.getAddressSpace();
    return success();
  }
  unsigned srcBits = src.getIntOrFloatBitWidth(), dstBits = dst.getIntOrFloatBitWidth();
  if (srcBits != dstBits)
    return emitOpError() << "cannot bitcast " << src << " (" << srcBits << " bits) to "
                         << dst << " (" << dstBits << " bits)";
  return success();
}

LogicalResult FpToFpOp::verify() {
  Type src = mlir::getElementTypeOrSelf(getSrc().getType());
  Type dst = mlir::getElementTypeOrSelf(getType());
  bool narrowing = dst.getIntOrFloatBitWidth() < src.getIntOrFloatBitWidth();
  if (narrowing && !getRounding())
    return emitOpError() << "a narrowing conversion from " << src << " to " << dst
                         << " needs a rounding mode";
  if (!narrowing && getRounding())
    return emitOpError() << "a rounding mode is only allowed when narrowing, not from "
                         << src << " to " << dst;
  return success();
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

LogicalResult AdvanceOp::verify() {
  auto block = cast<RankedTensorType>(getPtr().getType().getPointeeType());
  if (getOffsets().size() != static_cast<size_t>(block.getRank()))
    return emitOpError() << "expects " << block.getRank() << " offsets, got "
                         << getOffsets().size();
  return success();
}

static LogicalResult verifyBoundaryCheck(Operation *op, Type ptrType,
                                         ArrayRef<int32_t> boundaryCheck) {
  if (boundaryCheck.empty())
    return success();
  if (!isTensorPointerType(ptrType))
    return op->emitOpError() << "boundaryCheck is only allowed with a block pointer";
  int64_t rank = cast<RankedTensorType>(cast<PointerType>(ptrType).getPointeeType()).getRank();
  for (int32_t d : boundaryCheck)
    if (d < 0 || d >= rank)
      return op->emitOpError() << "boundaryCheck dimension " << d
                               << " is out of range for rank " << rank;
  return success();
}

void LoadOp::build(OpBuilder &builder, OperationState &state, Value ptr, Value mask,
                   Value other) {
  build(builder, state, getPointeeType(ptr.getType()), ptr, mask, other,
        /*boundaryCheck=*/ArrayRef<int32_t>{}, /*padding=*/nullptr,
        CacheModifier::NONE, EvictionPolicy::NORMAL, /*isVolatile=*/false);
}

LogicalResult LoadOp::verify() {
  if (isTensorPointerType(getPtr().getType()) && (getMask() || getOther()))
    return emitOpError() << "a block-pointer load takes no mask or other; use "
                            "boundaryCheck and padding";
  if (getPadding() && !isTensorPointerType(getPtr().getType()))
    return emitOpError() << "padding is only allowed with a block pointer";
  if (getOther() && !getMask())
    return emitOpError() << "'other' needs a mask";
  return verifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck());
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       GlobalMemory::get());
  // A volatile load must not be removed or merged with another.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

LogicalResult StoreOp::verify() {
  if (isTensorPointerType(getPtr().getType()) && getMask())
    return emitOpError() << "a block-pointer store takes no mask; use boundaryCheck";
  return verifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck());
}

LogicalResult AtomicRMWOp::verify() {
  Type valType = getVal().getType();
  if (getPtr().getType() != getPointerTypeSameShape(valType))
    return emitOpError() << "pointer type " << getPtr().getType()
                         << " does not point to values of type " << valType;
  if (getType() != valType)
    return emitOpError() << "result type must be the value type " << valType;
  if (getMask() && getMask().getType() != getI1SameShape(valType))
    return emitOpError() << "mask must be " << getI1SameShape(valType);
  Type element = mlir::getElementTypeOrSelf(valType);
  switch (getAtomicRmwOp()) {
  case RMWOp::FADD:
    if (!isa<FloatType>(element))
      return emitOpError() << "fadd needs a float value, got " << element;
    break;
  case RMWOp::AND:
  case RMWOp::OR:
  case RMWOp::XOR:
  case RMWOp::UMAX:
  case RMWOp::UMIN:
    if (!element.isInteger())
      return emitOpError() << stringifyRMWOp(getAtomicRmwOp())
                           << " needs an integer value, got " << element;
    break;
  default:
    break;
  }
  return success();
}

LogicalResult AtomicCASOp::verify() {
  Type valType = getVal().getType();
  if (getCmp().getType() != valType || getType() != valType)
    return emitOpError() << "cmp, val and result must all have type " << valType;
  if (getPtr().getType() != getPointerTypeSameShape(valType))
    return emitOpError() << "pointer type " << getPtr().getType()
                         << " does not point to values of type " << valType;
  return success();
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult SplatOp::verify() {
  if (isa<RankedTensorType>(getSrc().getType()))
    return emitOpError() << "splats a scalar, not a tensor";
  return success();
}

LogicalResult UnsplatOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                          ValueRange operands, DictionaryAttr,
                                          OpaqueProperties, RegionRange,
                                          SmallVectorImpl<Type> &inferred) {
  auto src = dyn_cast<RankedTensorType>(operands[0].getType());
  if (!src)
    return failure();
  inferred.push_back(src.getElementType());
  return success();
}

LogicalResult UnsplatOp::verify() {
  RankedTensorType src = getSrc().getType();
  if (src.getNumElements() != 1)
    return emitOpError() << "needs a tensor of exactly one element, got "
                         << shapeString(src.getShape());
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  ArrayRef<int64_t> src = getSrc().getType().getShape();
  int64_t axis = getAxisAttr().getInt(); // signed: getAxis() is unsigned
  if (axis < 0 || axis > static_cast<int64_t>(src.size()))
    return emitOpError() << "axis " << axis << " is out of range for rank " << src.size();
  SmallVector<int64_t> want(src);
  want.insert(want.begin() + axis, 1);
  if (getType().getShape() != ArrayRef<int64_t>(want))
    return emitOpError() << "result shape must be " << shapeString(want) << ", got "
                         << shapeString(getType().getShape());
  // The result encoding follows from the source's (a slice of the result's
  // along `axis`); an encoding tt cannot reason about is left alone.
  Attribute srcEncoding = getSrc().getType().getEncoding();
  Attribute encoding = getType().getEncoding();
  auto *infer = srcEncoding
                    ? dyn_cast<DialectInferLayoutInterface>(&srcEncoding.getDialect())
                    : nullptr;
  if (srcEncoding && !infer)
    return success();
  if (infer) {
    FailureOr<Attribute> wantEncoding = infer->inferExpandDimsEncoding(
        srcEncoding, axis, [&] { return emitOpError(); });
    if (failed(wantEncoding))
      return failure();
    if (*wantEncoding == encoding)
      return success();
    return emitOpError() << "result encoding must be " << *wantEncoding << ", got "
                         << encoding;
  }
  if (encoding)
    return emitOpError() << "result must have no encoding when the source has none";
  return success();
}

LogicalResult ReshapeOp::verify() {
  if (getSrc().getType().getNumElements() != getType().getNumElements())
    return emitOpError() << "cannot reshape " << shapeString(getSrc().getType().getShape())
                         << " into " << shapeString(getType().getShape())
                         << ": element counts differ";
  return success();
}

LogicalResult BroadcastOp::verify() {
  ArrayRef<int64_t> src = getSrc().getType().getShape();
  ArrayRef<int64_t> dst = getType().getShape();
  if (src.size() != dst.size())
    return emitOpError() << "source and result must have the same rank, got "
                         << src.size() << " and " << dst.size();
  for (auto [i, s, d] : llvm::enumerate(src, dst))
    if (s != d && s != 1)
      return emitOpError() << "dimension " << i << " of size " << s
                           << " cannot be broadcast to " << d;
  return success();
}

LogicalResult CatOp::verify() {
  RankedTensorType lhs = getLhs().getType();
  if (lhs.getRank() != getType().getRank())
    return emitOpError() << "result rank must match the operands";
  if (getType().getNumElements() != 2 * lhs.getNumElements())
    return emitOpError() << "result must hold the elements of both operands ("
                         << 2 * lhs.getNumElements() << "), got "
                         << getType().getNumElements();
  return success();
}

LogicalResult JoinOp::verify() {
  RankedTensorType lhs = getLhs().getType();
  SmallVector<int64_t> want(lhs.getShape());
  want.push_back(2);
  if (getType().getShape() != ArrayRef<int64_t>(want) ||
      getType().getElementType() != lhs.getElementType())
    return emitOpError() << "result must be " << shapeString(want) << " of "
                         << lhs.getElementType();
  return success();
}

LogicalResult SplitOp::verify() {
  ArrayRef<int64_t> src = getSrc().getType().getShape();
  if (src.empty() || src.back() != 2)
    return emitOpError() << "the last dimension of the source must be 2, got "
                         << shapeString(src);
  SmallVector<int64_t> want(src.drop_back());
  if (getOutLHS().getType().getShape() != ArrayRef<int64_t>(want) ||
      getOutLHS().getType().getElementType() != getSrc().getType().getElementType())
    return emitOpError() << "results must be " << shapeString(want) << " of "
                         << getSrc().getType().getElementType();
  return success();
}

LogicalResult TransOp::verify() {
  ArrayRef<int64_t> src = getSrc().getType().getShape();
  if (failed(verifyPermutation(*this, getOrder(), src.size(), "order")))
    return failure();
  SmallVector<int64_t> want;
  for (int32_t d : getOrder())
    want.push_back(src[d]);
  if (getType().getShape() != ArrayRef<int64_t>(want))
    return emitOpError() << "result shape must be " << shapeString(want) << ", got "
                         << shapeString(getType().getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise calls
//===----------------------------------------------------------------------===//

static void addCallEffects(
    bool pure,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (pure)
    return;
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

LogicalResult ExternElementwiseOp::verify() {
  if (getSymbol().empty())
    return emitOpError() << "needs a non-empty symbol";
  return success();
}

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  addCallEffects(getPure(), effects);
}

unsigned kiln::tt::inlineAsmElementsPerOperand(Type elem, unsigned packed) {
  unsigned bits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 64;
  return std::min(bits < 32 ? 32 / bits : 1u, packed);
}

/// The asm operands one value of `type` gives each asm instance.
static unsigned asmOperandsOf(Type type, unsigned packed) {
  return packed / inlineAsmElementsPerOperand(getElementTypeOrSelf(type), packed);
}

LogicalResult ElementwiseInlineAsmOp::verify() {
  if (getPackedElement() < 1)
    return emitOpError() << "packed_element must be at least 1";
  unsigned packed = getPackedElement();
  for (Type t : llvm::concat<Type>(getArgs().getTypes(), getResultTypes()))
    if (auto tensor = dyn_cast<RankedTensorType>(t))
      if (tensor.getNumElements() % packed != 0)
        return emitOpError() << "element count " << tensor.getNumElements()
                             << " is not a multiple of packed_element " << packed;
  // LLVM's code generator aborts on constraints or operand references that
  // do not fit the asm's operands, so they are checked here.
  unsigned outputs = 0, inputs = 0;
  for (Type t : getResultTypes())
    outputs += asmOperandsOf(t, packed);
  for (Type t : getArgs().getTypes())
    inputs += asmOperandsOf(t, packed);
  unsigned givenOutputs = 0, givenInputs = 0;
  SmallVector<StringRef> constraints;
  StringRef(getConstraints()).split(constraints, ',', -1, /*KeepEmpty=*/false);
  for (StringRef c : constraints) {
    c = c.trim();
    if (c.starts_with("="))
      ++givenOutputs;
    else if (!c.starts_with("~"))
      ++givenInputs;
  }
  if (givenOutputs != outputs || givenInputs != inputs)
    return emitOpError() << "constraints \"" << getConstraints() << "\" give " << givenOutputs
                         << " outputs and " << givenInputs << " inputs; the asm has " << outputs
                         << " outputs and " << inputs << " inputs (packed_element " << packed
                         << ", elements narrower than 32 bits share a register)";
  StringRef text = getAsmString();
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$')
      continue;
    if (i + 1 < text.size() && text[i + 1] == '$') {
      ++i;
      continue;
    }
    bool braced = i + 1 < text.size() && text[i + 1] == '{';
    size_t start = i + 1 + braced, end = start;
    while (end < text.size() && llvm::isDigit(text[end]))
      ++end;
    unsigned index = 0;
    if (end == start || text.substr(start, end - start).getAsInteger(10, index) ||
        (braced && (end >= text.size() || (text[end] != '}' && text[end] != ':'))))
      return emitOpError() << "asm string has '" << text.substr(i, end - i + 1)
                           << "', which names no operand (operands are $0, $1, ... or ${0}; "
                              "write $$ for a dollar sign)";
    if (index >= outputs + inputs)
      return emitOpError() << "asm string refers to operand $" << index << "; the asm has "
                           << outputs + inputs << " (" << outputs << " outputs, then " << inputs
                           << " inputs)";
    i = end - 1;
  }
  return success();
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  addCallEffects(getPure(), effects);
}

//===----------------------------------------------------------------------===//
// make_range, histogram, gather, print
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStartAttr().getInt(), end = getEndAttr().getInt();
  RankedTensorType type = getType();
  if (type.getRank() != 1 || !type.getElementType().isInteger(32))
    return emitOpError() << "result must be a 1-D tensor of i32";
  if (end <= start)
    return emitOpError() << "end (" << end << ") must be greater than start (" << start
                         << ")";
  if (type.getShape()[0] != end - start)
    return emitOpError() << "result has " << type.getShape()[0]
                         << " elements but the range [" << start << ", " << end
                         << ") has " << end - start;
  return success();
}

LogicalResult HistogramOp::verify() {
  if (getSrc().getType().getRank() != 1 || getType().getRank() != 1)
    return emitOpError() << "source and result must be 1-D";
  return success();
}

LogicalResult GatherOp::verify() {
  RankedTensorType src = getSrc().getType(), idx = getIndices().getType();
  int64_t axis = getAxisAttr().getInt(); // signed: getAxis() is unsigned
  if (src.getRank() != idx.getRank())
    return emitOpError() << "source and indices must have the same rank";
  if (axis < 0 || axis >= src.getRank())
    return emitOpError() << "axis " << axis << " is out of range for rank "
                         << src.getRank();
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (d != axis && idx.getShape()[d] > src.getShape()[d])
      return emitOpError() << "indices dimension " << d << " (" << idx.getShape()[d]
                           << ") exceeds the source's (" << src.getShape()[d] << ")";
  if (getType().getShape() != idx.getShape() ||
      getType().getElementType() != src.getElementType())
    return emitOpError() << "result must have the indices' shape and the source's "
                            "element type";
  return success();
}

LogicalResult PrintOp::verify() {
  if (getIsSigned().size() != getArgs().size())
    return emitOpError() << "isSigned must have one entry per argument ("
                         << getArgs().size() << "), got " << getIsSigned().size();
  return success();
}

//===----------------------------------------------------------------------===//
// Block pointers and descriptors
//===----------------------------------------------------------------------===//

LogicalResult MakeTensorPtrOp::verify() {
  auto block = cast<RankedTensorType>(getType().getPointeeType());
  size_t rank = block.getRank();
  if (getShape().size() != rank || getStrides().size() != rank ||
      getOffsets().size() != rank)
    return emitOpError() << "shape, strides and offsets need " << rank
                         << " entries each for a rank-" << rank << " block";
  return verifyPermutation(*this, getOrder(), rank, "order");
}

LogicalResult MakeTensorDescOp::verify() {
  RankedTensorType block = getType().getBlockType();
  if (getShape().size() != static_cast<size_t>(block.getRank()))
    return emitOpError() << "expects " << block.getRank() << " shape and stride values, got "
                         << getShape().size();
  // Triton types an integer block signed or unsigned over a signless base.
  if (getBase().getType().getPointeeType() != getType().getSignlessBlockType().getElementType())
    return emitOpError() << "base points to " << getBase().getType().getPointeeType()
                         << " but the block holds " << block.getElementType();
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  if (failed(verifyDescriptorIndices(*this, getDesc().getType(), getIndices().size())))
    return failure();
  return verifyDescriptorBlock(*this, getDesc().getType(), getType(), "result");
}

LogicalResult DescriptorStoreOp::verify() {
  if (failed(verifyDescriptorIndices(*this, getDesc().getType(), getIndices().size())))
    return failure();
  return verifyDescriptorBlock(*this, getDesc().getType(), getSrc().getType(), "source");
}

LogicalResult DescriptorReduceOp::verify() {
  if (failed(verifyDescriptorIndices(*this, getDesc().getType(), getIndices().size())))
    return failure();
  return verifyDescriptorBlock(*this, getDesc().getType(), getSrc().getType(), "source");
}

LogicalResult DescriptorGatherOp::verify() {
  return verifyGatherScatterShape(*this, getDesc().getType(), getXOffsets().getType(),
                                  getType(), "result");
}

LogicalResult DescriptorScatterOp::verify() {
  return verifyGatherScatterShape(*this, getDesc().getType(), getXOffsets().getType(),
                                  getSrc().getType(), "source");
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type, ArrayRef<NamedAttribute> attrs,
                   ArrayRef<DictionaryAttr> argAttrs) {
  state.addAttribute(SymbolTable::getSymbolAttrName(), builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.attributes.append(attrs.begin(), attrs.end());
  state.addRegion();
  if (argAttrs.empty())
    return;
  call_interface_impl::addArgAndResultAttrs(builder, state, argAttrs, /*resultAttrs=*/{},
                                            getArgAttrsAttrName(state.name),
                                            getResAttrsAttrName(state.name));
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildType = [](Builder &builder, ArrayRef<Type> args, ArrayRef<Type> results,
                      function_interface_impl::VariadicFlag, std::string &) {
    return builder.getFunctionType(args, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false, getFunctionTypeAttrName(result.name),
      buildType, getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(printer, *this, /*isVariadic=*/false,
                                           getFunctionTypeAttrName(), getArgAttrsAttrName(),
                                           getResAttrsAttrName());
}

LogicalResult ReturnOp::verify() {
  auto func = cast<FuncOp>((*this)->getParentOp());
  ArrayRef<Type> results = func.getResultTypes();
  if (getNumOperands() != results.size())
    return emitOpError() << "returns " << getNumOperands() << " values but @"
                         << func.getName() << " declares " << results.size();
  for (auto [i, got, want] : llvm::enumerate(getOperandTypes(), results))
    if (got != want)
      return emitOpError() << "value #" << i << " has type " << got << " but @"
                           << func.getName() << " returns " << want;
  return success();
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee = symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "calls @" << getCallee() << ", which is not a tt.func here";
  FunctionType type = callee.getFunctionType();
  if (TypeRange(type.getInputs()) != TypeRange(getOperandTypes()) ||
      TypeRange(type.getResults()) != TypeRange(getResultTypes()))
    return emitOpError() << "call type " << getCalleeType() << " does not match @"
                         << getCallee() << "'s " << type;
  return success();
}

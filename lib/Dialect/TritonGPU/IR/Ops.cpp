//===- Ops.cpp - ttg ops: verifiers, folders, memory effects --------------===//
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kiln::ttg;

namespace {
/// ttg.barrier's address spaces: `all`, `none`, or names joined with `|`.
ParseResult parseAddrSpace(OpAsmParser &parser, IntegerAttr &attr) {
  uint32_t bits = 0;
  do {
    SMLoc loc = parser.getCurrentLocation();
    StringRef name;
    if (parser.parseKeyword(&name))
      return failure();
    std::optional<AddrSpace> space = symbolizeAddrSpace(name);
    if (!space)
      return parser.emitError(loc, "unknown barrier address space '")
             << name << "' (expected all, none, local, global_read, global_write, "
                        "tensor_read or tensor_write)";
    bits |= uint32_t(*space);
  } while (succeeded(parser.parseOptionalVerticalBar()));
  attr = parser.getBuilder().getI32IntegerAttr(int32_t(bits));
  return success();
}

void printAddrSpace(OpAsmPrinter &printer, Operation *, IntegerAttr attr) {
  auto space = AddrSpace(uint32_t(attr.getInt()));
  // The generated stringify also lists the group's bits before its name.
  printer << (space == AddrSpace::All ? "all" : stringifyAddrSpace(space));
}
} // namespace

#include "kiln/Dialect/TritonGPU/IR/OpInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "kiln/Dialect/TritonGPU/IR/Ops.cpp.inc"

namespace {

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string out = "[";
  llvm::raw_string_ostream os(out);
  llvm::interleaveComma(shape, os);
  return out + "]";
}

/// A tensor moved to or from a buffer: same element type, same shape, and
/// a rank the buffer's encoding describes (leading buffer dimensions must be
/// indexed away first).
LogicalResult verifyTensorAndBuffer(Operation *op, RankedTensorType tensor,
                                    MemDescType buffer, StringRef what) {
  unsigned encodingRank = cast<LayoutEncodingInterface>(buffer.getEncoding()).getRank();
  if (tensor.getRank() != encodingRank)
    return op->emitOpError() << what << " has rank " << tensor.getRank()
                             << " but the memdesc encoding has rank " << encodingRank;
  if (tensor.getElementType() != buffer.getElementType())
    return op->emitOpError() << what << " element type " << tensor.getElementType()
                             << " does not match the memdesc's "
                             << buffer.getElementType();
  if (tensor.getShape() != buffer.getShape())
    return op->emitOpError() << what << " shape " << shapeString(tensor.getShape())
                             << " does not match the memdesc shape "
                             << shapeString(buffer.getShape());
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// convert_layout
//===----------------------------------------------------------------------===//

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  // convert(convert(x)) is one conversion from x.
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

LogicalResult LocalAllocOp::verify() {
  MemDescType type = getType();
  if (std::optional<uint32_t> alignment = getAlignment())
    if (!llvm::isPowerOf2_32(*alignment))
      return emitOpError() << "alignment " << *alignment << " is not a power of two";
  if (type.getAllocShape() != type.getShape())
    return emitOpError() << "result must be a whole allocation (its alloc shape "
                         << shapeString(type.getAllocShape()) << " differs from its shape "
                         << shapeString(type.getShape()) << ")";
  if (!getSrc()) {
    if (!type.getMutableMemory())
      return emitOpError() << "an allocation without an initial value must be mutable";
    return success();
  }
  return verifyTensorAndBuffer(*this, getSrc().getType(), type, "source");
}

// An immutable buffer is a value until the allocator gives it an address,
// so that CSE and DCE treat it as one; after that it is memory.
void LocalAllocOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (!getType().getMutableMemory() && !(*this)->hasAttr("allocation.offset"))
    return;
  OpResult buffer = getOperation()->getOpResult(0);
  effects.emplace_back(MemoryEffects::Allocate::get(), buffer, SharedMemory::get());
  if (getSrc())
    effects.emplace_back(MemoryEffects::Write::get(), buffer, SharedMemory::get());
}

LogicalResult LocalLoadOp::verify() {
  return verifyTensorAndBuffer(*this, getType(), getSrc().getType(), "result");
}

LogicalResult LocalStoreOp::verify() {
  if (!getDst().getType().getMutableMemory())
    return emitOpError() << "cannot store into an immutable memdesc";
  return verifyTensorAndBuffer(*this, getSrc().getType(), getDst().getType(), "source");
}

/// A view of part of a buffer keeps what its elements are and where.
static LogicalResult verifySameBuffer(Operation *op, MemDescType src, MemDescType result) {
  if (result.getElementType() != src.getElementType() ||
      result.getEncoding() != src.getEncoding() ||
      result.getMemorySpace() != src.getMemorySpace() ||
      result.getMutableMemory() != src.getMutableMemory())
    return op->emitOpError() << "result must keep the element type, encoding, memory space "
                                "and mutability of the source";
  return success();
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  if (src.getRank() < 2)
    return emitOpError() << "needs a memdesc of rank 2 or more to index, got rank "
                         << src.getRank();
  if (src.getAllocShape() != src.getShape())
    return emitOpError() << "cannot index a view of part of an allocation";
  ArrayRef<int64_t> want = src.getShape().drop_front();
  if (result.getShape() != want)
    return emitOpError() << "result shape must be " << shapeString(want) << ", got "
                         << shapeString(result.getShape());
  if (result.getAllocShape() != want)
    return emitOpError() << "result is a whole buffer, so its alloc shape must be its shape";
  return verifySameBuffer(*this, src, result);
}

LogicalResult MemDescTransOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  ArrayRef<int32_t> order = getOrder();
  int64_t rank = src.getRank();
  if (int64_t(order.size()) != rank)
    return emitOpError() << "order has " << order.size() << " entries but the source has rank "
                         << rank;
  SmallVector<bool> seen(rank, false);
  for (int32_t dim : order) {
    if (dim < 0 || dim >= rank || seen[dim])
      return emitOpError() << "order must be a permutation of 0.." << rank - 1;
    seen[dim] = true;
  }
  SmallVector<int64_t> want;
  for (int32_t dim : order)
    want.push_back(src.getShape()[dim]);
  if (result.getShape() != ArrayRef<int64_t>(want))
    return emitOpError() << "result shape must be " << shapeString(want) << ", got "
                         << shapeString(result.getShape());
  // The view's allocation is the source's, its trailing dimensions (those
  // the view spans) permuted the same way.
  ArrayRef<int64_t> srcAlloc = src.getAllocShape();
  size_t lead = srcAlloc.size() - rank;
  SmallVector<int64_t> wantAlloc(srcAlloc.take_front(lead));
  for (int32_t dim : order)
    wantAlloc.push_back(srcAlloc[lead + dim]);
  if (result.getAllocShape() != ArrayRef<int64_t>(wantAlloc))
    return emitOpError() << "result alloc shape must be " << shapeString(wantAlloc) << ", got "
                         << shapeString(result.getAllocShape());
  if (result.getElementType() != src.getElementType() ||
      result.getMemorySpace() != src.getMemorySpace() ||
      result.getMutableMemory() != src.getMutableMemory())
    return emitOpError() << "result must keep the element type, memory space and "
                            "mutability of the source";
  return success();
}

LogicalResult MemDescSubsliceOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  ArrayRef<int32_t> offsets = getOffsets();
  if (result.getRank() != src.getRank() || int64_t(offsets.size()) != src.getRank())
    return emitOpError() << "source, result and offsets must have the same rank";
  for (auto [i, offset, size, srcSize] :
       llvm::enumerate(offsets, result.getShape(), src.getShape())) {
    if (offset < 0 || size < 1 || offset + size > srcSize)
      return emitOpError() << "dimension " << i << ": elements " << offset << " to "
                           << offset + size << " are not within the source's " << srcSize;
    if (offset % size != 0)
      return emitOpError() << "dimension " << i << ": offset " << offset
                           << " is not a multiple of the view's extent " << size;
  }
  if (result.getAllocShape() != src.getAllocShape())
    return emitOpError() << "result alloc shape must be the source's, "
                         << shapeString(src.getAllocShape());
  return verifySameBuffer(*this, src, result);
}

LogicalResult MemoryFenceOp::verify() {
  if (getSem() == kiln::tt::MemSemantic::RELAXED)
    return emitOpError() << "a relaxed fence orders nothing; use acquire, release or acq_rel";
  return success();
}

LogicalResult MemDescReinterpretOp::verify() {
  auto bytes = [](MemDescType type) {
    int64_t n = type.getElementType().getIntOrFloatBitWidth();
    for (int64_t d : type.getShape())
      n *= d;
    return n / 8;
  };
  MemDescType src = getSrc().getType(), result = getResult().getType();
  if (!src.getElementType().isIntOrFloat() || !result.getElementType().isIntOrFloat())
    return emitOpError() << "reinterprets buffers of numbers only";
  // A view from a buffer of a multi-buffered allocation may reach into the
  // buffers after it (Gluon's tutorials borrow two operand buffers for an
  // epilogue): it is bounded by the allocation's bytes from that buffer on,
  // when the index is known; by the one buffer otherwise.
  int64_t room = bytes(src);
  if (auto index = getSrc().getDefiningOp<MemDescIndexOp>()) {
    int64_t count = index.getSrc().getType().getShape().front();
    APInt at;
    if (matchPattern(index.getIndex(), m_ConstantInt(&at)) && at.getSExtValue() >= 0 &&
        at.getSExtValue() < count)
      room *= count - at.getSExtValue();
  }
  if (bytes(result) > room)
    return emitOpError() << "view of " << bytes(result) << " bytes is larger than the "
                         << room << " bytes of its buffer"
                         << (room != bytes(src) ? " and the buffers after it" : "");
  if (src.getMemorySpace() != result.getMemorySpace())
    return emitOpError() << "cannot change the memory space";
  return success();
}

//===----------------------------------------------------------------------===//
// Asynchronous copies
//===----------------------------------------------------------------------===//

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  MemDescType buffer = getResult().getType();
  if (!buffer.getMutableMemory())
    return emitOpError() << "cannot copy into an immutable memdesc";
  if (getOther() && !getMask())
    return emitOpError() << "`other` needs a `mask`";
  // Read signed: the attribute's i32 may be negative.
  int64_t contiguity = getContiguityAttr().getInt();
  if (contiguity < 1)
    return emitOpError() << "contiguity must be at least 1, got " << contiguity;
  auto elements = cast<RankedTensorType>(kiln::tt::getPointeeType(getSrc().getType()));
  return verifyTensorAndBuffer(*this, elements, buffer, "source");
}

LogicalResult AsyncWaitOp::verify() {
  int64_t num = getNumAttr().getInt(); // signed: getNum() is unsigned
  if (num < 0)
    return emitOpError() << "num must not be negative, got " << num;
  return success();
}

//===----------------------------------------------------------------------===//
// Synchronisation
//===----------------------------------------------------------------------===//

LogicalResult BarrierOp::verify() {
  uint32_t bits = uint32_t(getAddrSpaceAttr().getInt());
  if (bits & ~uint32_t(AddrSpace::All))
    return emitOpError() << "address-space bits 0x" << llvm::utohexstr(bits)
                         << " name no address space";
  return success();
}

//===----------------------------------------------------------------------===//
// Global scratch memory
//===----------------------------------------------------------------------===//

LogicalResult GlobalScratchAllocOp::verify() {
  auto ptr = cast<kiln::tt::PointerType>(getResult().getType());
  if (ptr.getAddressSpace() != 1)
    return emitOpError() << "must return a pointer to global memory (address space 1), got "
                         << ptr;
  int64_t align = getAlignmentAttr().getInt();
  if (!llvm::isPowerOf2_64(uint64_t(align)))
    return emitOpError() << "alignment must be a power of two, got " << align;
  return success();
}

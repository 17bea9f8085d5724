//===- SyncOps.cpp - verifiers of tt.atomic_load / store / poll -----------===//
#include "kiln/Dialect/Triton/IR/Dialect.h"

using namespace mlir;
using namespace kiln::tt;

namespace {

LogicalResult verifySemantic(Operation *op, MemSemantic sem, MemSemantic allowed) {
  if (sem == allowed || sem == MemSemantic::RELAXED)
    return success();
  return op->emitOpError() << "semantic must be " << stringifyMemSemantic(allowed)
                           << " or relaxed, got " << stringifyMemSemantic(sem);
}

/// `value` (a loaded, stored or expected type) is what `ptr` points to.
LogicalResult verifyPointee(Operation *op, Type ptr, Type value, StringRef what) {
  if (getPointeeType(ptr) == value)
    return success();
  return op->emitOpError() << what << " type " << value << " is not the pointee type of "
                           << ptr;
}

LogicalResult verifyMask(Operation *op, Value mask, Type value) {
  if (!mask || mask.getType() == getI1SameShape(value))
    return success();
  return op->emitOpError() << "mask must be " << getI1SameShape(value) << ", got "
                           << mask.getType();
}

/// Integers or floats of 8 to 64 bits (`intOnly`: integers of 16 to 64).
LogicalResult verifyElement(Operation *op, Type value, bool intOnly) {
  Type element = getElementTypeOrSelf(value);
  unsigned bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
  if (intOnly ? element.isInteger() && bits >= 16 && bits <= 64
              : bits >= 8 && bits <= 64 && llvm::isPowerOf2_32(bits))
    return success();
  return op->emitOpError() << (intOnly ? "polls 16-, 32- or 64-bit integers"
                                       : "needs integers or floats of 8 to 64 bits")
                           << ", got " << element;
}

} // namespace

LogicalResult AtomicLoadOp::verify() {
  if (failed(verifySemantic(*this, getSem(), MemSemantic::ACQUIRE)) ||
      failed(verifyPointee(*this, getPtr().getType(), getType(), "result")) ||
      failed(verifyMask(*this, getMask(), getType())))
    return failure();
  return verifyElement(*this, getType(), /*intOnly=*/false);
}

LogicalResult AtomicStoreOp::verify() {
  if (failed(verifySemantic(*this, getSem(), MemSemantic::RELEASE)) ||
      failed(verifyPointee(*this, getPtr().getType(), getVal().getType(), "value")) ||
      failed(verifyMask(*this, getMask(), getVal().getType())))
    return failure();
  return verifyElement(*this, getVal().getType(), /*intOnly=*/false);
}

LogicalResult AtomicPollOp::verify() {
  Type expected = getExpected().getType();
  if (failed(verifySemantic(*this, getSem(), MemSemantic::ACQUIRE)) ||
      failed(verifyPointee(*this, getPtr().getType(), expected, "expected value")))
    return failure();
  if (getType() != getI1SameShape(expected))
    return emitOpError() << "result must be " << getI1SameShape(expected) << ", got "
                         << getType();
  return verifyElement(*this, expected, /*intOnly=*/true);
}

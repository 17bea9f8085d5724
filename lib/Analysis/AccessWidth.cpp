//===- AccessWidth.cpp - how wide a load or store may be ------------------===//
#include "kiln/Analysis/AccessWidth.h"

#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Layout/Queries.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace kiln::lowering {

/// The bits one pointee of the tensor of pointers `ptrs` takes in memory
/// (i1: a byte, pointers: 64).
static unsigned pointeeBits(RankedTensorType ptrs) {
  auto ptr = dyn_cast<tt::PointerType>(ptrs.getElementType());
  Type pointee = ptr ? ptr.getPointeeType() : Type();
  if (isa_and_nonnull<tt::PointerType>(pointee))
    return 64;
  if (!pointee || !pointee.isIntOrFloat())
    return 8;
  return std::max(8u, pointee.getIntOrFloatBitWidth());
}

unsigned accessVectorWidth(const AxisInfoAnalysis &axes, Value ptr, Value mask, unsigned ptrHint) {
  auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
  if (!tensor)
    return 1;
  llvm::Expected<layout::LinearLayout> ll = ttg::toLinearLayout(tensor);
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return 1;
  }
  if (ll->getInDimSizeLog2(layout::kRegister) == 0)
    return 1;
  // The dimension consecutive registers step along, by exactly 1.
  ArrayRef<int32_t> first = ll->getBasis(layout::kRegister, 0);
  if (llvm::count_if(first, [](int32_t c) { return c != 0; }) != 1)
    return 1;
  const int32_t *step = llvm::find(first, 1);
  if (step == first.end())
    return 1;
  unsigned dim = step - first.begin();
  int64_t vec = layout::registerVectorWidth(*ll, dim, pointeeBits(tensor));
  vec = std::min<int64_t>(vec, std::max(axes.getPtrAlignment(ptr, dim), ptrHint));
  if (mask)
    vec = std::min<int64_t>(vec, axes.getMaskAlignment(mask, dim));
  return unsigned(llvm::bit_floor(uint64_t(std::max<int64_t>(vec, 1))));
}

} // namespace kiln::lowering

//===- TypeKinds.cpp - element kinds of MLIR types ------------------------===//
//
// Apart from Value.cpp so that the run-spec library needs no MLIR.
//
//===----------------------------------------------------------------------===//
#include "kiln/RunSpec/Value.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"

using namespace mlir;

namespace kiln::interp {

std::optional<ElemKind> kindOfType(Type t) {
  if (auto it = dyn_cast<IntegerType>(t)) {
    switch (it.getWidth()) {
    case 1: return ElemKind::I1;
    case 8: return ElemKind::I8;
    case 16: return ElemKind::I16;
    case 32: return ElemKind::I32;
    case 64: return ElemKind::I64;
    default: return std::nullopt;
    }
  }
  if (isa<IndexType>(t))
    return ElemKind::I64;
  if (t.isF16())
    return ElemKind::F16;
  if (t.isBF16())
    return ElemKind::BF16;
  if (t.isF32())
    return ElemKind::F32;
  if (t.isF64())
    return ElemKind::F64;
  if (isa<Float8E4M3FNType>(t))
    return ElemKind::F8E4M3FN;
  if (isa<Float8E4M3FNUZType>(t))
    return ElemKind::F8E4M3FNUZ;
  if (isa<Float8E5M2Type>(t))
    return ElemKind::F8E5M2;
  if (isa<Float8E5M2FNUZType>(t))
    return ElemKind::F8E5M2FNUZ;
  if (auto p = dyn_cast<kiln::tt::PointerType>(t))
    if (!isa<RankedTensorType>(p.getPointeeType()))
      return ElemKind::Ptr;
  return std::nullopt;
}

} // namespace kiln::interp

//===- Views.cpp - hwx's views of buffers: transposes, slices, reinterprets ===//
//
//   bt = hwx.trans(b_bufs[s])               # [BK, BN] read as [BN, BK]
//   half = hwx.slice(buf, [0, 64], [128, 64])
//   out = hwx.reinterpret(a_bufs[0], [128, 128], tl.float16)
//
// Views touch no memory: the same bytes, read another way (wgmma takes a
// transposed view of a K-major operand, as fp8 products need; an epilogue
// may reuse operand buffers as its own, reinterpreted).
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Frontend/KernelBuilder.h"
#include "kiln/Plugin/OpRegistry.h"

#include "mlir/IR/Verifier.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using kiln::KernelBuilder;
namespace ttg = kiln::ttg;

namespace hwx {
namespace {

FailureOr<ttg::MemDescType> bufferOf(KernelBuilder &kb, StringRef op, Value value) {
  auto type = dyn_cast<ttg::MemDescType>(value.getType());
  if (!type)
    return kb.emitError() << op << " takes an hwx buffer, got " << value.getType();
  return type;
}

FailureOr<SmallVector<int64_t>> intList(KernelBuilder &kb, StringRef op, DictionaryAttr constants,
                                        StringRef name, size_t rank) {
  auto list = constants.getAs<ArrayAttr>(name);
  SmallVector<int64_t> values;
  for (Attribute a : list ? list.getValue() : ArrayRef<Attribute>())
    if (auto i = dyn_cast<IntegerAttr>(a))
      values.push_back(i.getInt());
  if (!list || values.size() != list.size() || values.size() != rank)
    return kb.emitError() << op << ": " << name << " must be a list of " << rank
                          << " ints, got " << constants.get(name);
  return values;
}

// hwx.trans(buf): a 2-D buffer in the wgmma/TMA layout, read transposed.
Results trans(KernelBuilder &kb, ValueRange operands, DictionaryAttr) {
  FailureOr<ttg::MemDescType> type = bufferOf(kb, "hwx.trans", operands[0]);
  if (failed(type))
    return failure();
  if (type->getRank() != 2 || !isa<ttg::NVMMASharedEncodingAttr>(type->getEncoding()))
    return kb.emitError() << "hwx.trans transposes one 2-D buffer in the wgmma/TMA layout "
                             "(index the allocation first), got "
                          << *type;
  SmallVector<int32_t> order{1, 0};
  ttg::MemDescType result = ttg::transposedType(*type, order);
  return SmallVector<Value>{
      ttg::MemDescTransOp::create(kb.builder(), kb.loc(), result, operands[0], order)};
}

// hwx.slice(buf, offsets, shape): the box of `buf` at `offsets`.
Results slice(KernelBuilder &kb, ValueRange operands, DictionaryAttr constants) {
  FailureOr<ttg::MemDescType> type = bufferOf(kb, "hwx.slice", operands[0]);
  if (failed(type))
    return failure();
  size_t rank = type->getRank();
  FailureOr<SmallVector<int64_t>> offsets = intList(kb, "hwx.slice", constants, "offsets", rank);
  FailureOr<SmallVector<int64_t>> shape = intList(kb, "hwx.slice", constants, "shape", rank);
  if (failed(offsets) || failed(shape))
    return failure();
  for (size_t d = 0; d < rank; ++d)
    if ((*shape)[d] < 1 || (*offsets)[d] < 0 || (*offsets)[d] % (*shape)[d] ||
        (*offsets)[d] + (*shape)[d] > type->getShape()[d])
      return kb.emitError() << "hwx.slice: dimension " << d << " takes " << (*shape)[d]
                            << " elements from " << (*offsets)[d] << " of "
                            << type->getShape()[d]
                            << "; the offset must be a multiple of the size, the box inside";
  auto result = ttg::MemDescType::get(kb.builder().getContext(), *shape, type->getElementType(),
                                      type->getEncoding(), type->getMemorySpace(),
                                      type->getMutableMemory(), type->getAllocShape());
  SmallVector<int32_t> at(offsets->begin(), offsets->end());
  return SmallVector<Value>{
      ttg::MemDescSubsliceOp::create(kb.builder(), kb.loc(), result, operands[0], at)};
}

// hwx.reinterpret(buf, shape, dtype): the same bytes as a buffer of
// `shape` and `dtype` (no copy), in the layout hwx.alloc gives that shape.
Results reinterpret(KernelBuilder &kb, ValueRange operands, DictionaryAttr constants) {
  FailureOr<ttg::MemDescType> type = bufferOf(kb, "hwx.reinterpret", operands[0]);
  if (failed(type))
    return failure();
  auto list = constants.getAs<ArrayAttr>("shape");
  SmallVector<int64_t> shape;
  for (Attribute a : list ? list.getValue() : ArrayRef<Attribute>())
    if (auto i = dyn_cast<IntegerAttr>(a); i && i.getInt() > 0 && llvm::isPowerOf2_64(i.getInt()))
      shape.push_back(i.getInt());
  if (!list || shape.empty() || shape.size() != list.size())
    return kb.emitError() << "hwx.reinterpret: shape must be a non-empty list of powers of two, "
                             "got "
                          << constants.get("shape");
  auto dtypeName = constants.getAs<StringAttr>("dtype");
  Type element = dtypeName ? kb.dtype(dtypeName.getValue()) : Type();
  if (!element || !element.isIntOrFloat())
    return kb.emitError() << "hwx.reinterpret: dtype must be a Triton number dtype, got "
                          << constants.get("dtype");
  auto result = ttg::MemDescType::get(shape, element, bufferEncoding(shape, element),
                                      type->getMemorySpace(), type->getMutableMemory());
  auto op = ttg::MemDescReinterpretOp::create(kb.builder(), kb.loc(), result, operands[0]);
  if (failed(mlir::verify(op)))
    return failure();
  return SmallVector<Value>{op.getResult()};
}

} // namespace

void registerViewOps(kiln::OpRegistry &registry) {
  addOps(registry,
         {{"hwx.trans",
           {{"buf", "buffer"}},
           {{"buffer", "[buf.shape[1], buf.shape[0]]", "buf.dtype"}},
           "(buf: buffer) -> buffer",
           "the 2-D buffer read transposed (no copy): a K-major operand of async_dot",
           &trans},
          {"hwx.slice",
           {{"buf", "buffer"}, {"offsets", "constexpr"}, {"shape", "constexpr"}},
           {{"buffer", "list(shape)", "buf.dtype"}},
           "(buf: buffer, offsets: list[int], shape: list[int]) -> buffer",
           "the box of shape at offsets (multiples of shape) of the buffer (no copy)",
           &slice},
          {"hwx.reinterpret",
           {{"buf", "buffer"}, {"shape", "constexpr"}, {"dtype", "constexpr"}},
           {{"buffer", "list(shape)", "dtype"}},
           "(buf: buffer, shape: list[int], dtype) -> buffer",
           "the buffer's bytes as a buffer of shape and dtype (no copy; no larger than buf and "
           "the buffers after it)",
           &reinterpret}});
}

} // namespace hwx

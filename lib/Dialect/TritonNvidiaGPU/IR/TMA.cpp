//===- TMA.cpp - tensor descriptors as TMA tensor maps --------------------===//
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"

using namespace mlir;

namespace kiln::ttng {

namespace {

// Triton's numbering of tensor-map element types.
enum TMAElementType : int {
  kU8 = 0, kU16 = 1, kU32 = 2, kS32 = 3, kU64 = 4, kS64 = 5,
  kF16 = 6, kF32 = 7, kF64 = 9, kBF16 = 10, kB4x16P64 = 14,
};

FailureOr<int> elementType(Operation *op, Type elem, bool fp4Padded) {
  if (fp4Padded)
    return int(kB4x16P64);
  if (elem.isBF16())
    return int(kBF16);
  if (elem.isF16())
    return int(kF16);
  if (elem.isF32())
    return int(kF32);
  if (elem.isF64())
    return int(kF64);
  bool isSigned = elem.isSignedInteger();
  switch (elem.getIntOrFloatBitWidth()) {
  case 8:
    return int(kU8);
  case 16:
    return int(kU16);
  case 32:
    return int(isSigned ? kS32 : kU32);
  case 64:
    return int(isSigned ? kS64 : kU64);
  default:
    return op->emitError() << "a TMA descriptor's elements must be 1, 2, 4 or 8 bytes, got "
                           << elem;
  }
}

/// Halves the box's outer dimensions (outermost first) until a CTA's tile
/// of `tile` takes a multiple of `copies` messages, keeping each message at
/// least one swizzle atom (8 rows of the span); as far as it goes.
void splitForMulticast(TMADescriptorInfo &info, ArrayRef<int64_t> tile, unsigned bits,
                       int64_t copies) {
  int64_t messages = 1;
  for (auto [t, b] : llvm::zip(tile, info.box))
    messages *= t / b;
  int64_t rowBytes = info.box.back() * bits / 8;
  for (size_t d = 0; d + 1 < info.box.size() && messages % copies; ++d) {
    while (messages % copies && info.box[d] % 2 == 0) {
      int64_t rows = 1;
      for (size_t e = 0; e + 1 < info.box.size(); ++e)
        rows *= e == d ? info.box[e] / 2 : info.box[e];
      if (rows * rowBytes < info.swizzleBytes * 8)
        return;
      info.box[d] /= 2;
      messages *= 2;
    }
  }
}

} // namespace

FailureOr<TMADescriptorInfo> getTMADescriptorInfo(Operation *op, tt::TensorDescType desc) {
  RankedTensorType block = desc.getBlockType();
  auto enc = dyn_cast_or_null<ttg::NVMMASharedEncodingAttr>(block.getEncoding());
  if (!enc)
    return op->emitError() << "tensor descriptor " << desc
                           << " needs a #ttg.nvmma_shared block encoding for TMA (run "
                              "ttgir.optimize-descriptor-encoding)";
  if (block.getRank() < 1 || block.getRank() > 5)
    return op->emitError() << "TMA moves blocks of 1 to 5 dimensions, not " << block.getRank();
  if (enc.getTransposed())
    return op->emitError() << "a TMA descriptor's block cannot have a transposed encoding";
  Type elem = block.getElementType();
  if (!elem.isIntOrFloat())
    return op->emitError() << "a TMA descriptor's elements must be numbers, got " << elem;
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (enc.getElementBitWidth() != bits && !enc.getFp4Padded())
    return op->emitError() << "the block encoding's elementBitWidth ("
                           << enc.getElementBitWidth() << ") is not that of " << elem;

  TMADescriptorInfo info;
  info.swizzleBytes = int(enc.getSwizzlingByteWidth());
  info.swizzleMode = info.swizzleBytes == 0 ? 0 : llvm::Log2_32(info.swizzleBytes) - 4;
  info.elemSize = int(bits / 8);
  info.fp4Padded = enc.getFp4Padded();
  FailureOr<int> type = elementType(op, elem, info.fp4Padded);
  if (failed(type))
    return failure();
  info.elemType = *type;
  // In a program of several CTAs each copies its own tile of the block.
  info.box = ttg::ctaShape(block.getShape(), enc);
  // One message writes at most one swizzle span of each row.
  if (info.swizzleBytes)
    info.box.back() = std::min<int64_t>(info.box.back(), info.swizzleBytes * 8 / bits);
  for (int64_t &d : info.box)
    d = std::min<int64_t>(d, 256);
  if (info.box.back() * bits % 128)
    return op->emitError() << "a TMA box row must be a multiple of 16 bytes, got "
                           << info.box.back() << " x " << elem;
  splitForMulticast(info, ttg::ctaShape(block.getShape(), enc), bits,
                    int64_t(1) << llvm::popcount(uint64_t(replicatedCTABits(enc))));
  return info;
}

int64_t replicatedCTABits(ttg::LayoutEncodingInterface encoding) {
  int64_t bits = 0;
  for (auto [bit, basis] : llvm::enumerate(encoding.getCGABases()))
    if (llvm::all_of(basis, [](int32_t c) { return c == 0; }))
      bits |= int64_t(1) << bit;
  return bits;
}

ttg::NVMMASharedEncodingAttr defaultTMAEncoding(RankedTensorType block,
                                                ArrayRef<int32_t> cgaLayout) {
  SmallVector<int64_t> shape = ttg::ctaShape(block.getShape(), cgaLayout);
  unsigned bits = block.getElementType().getIntOrFloatBitWidth();
  int64_t rowBytes = shape.back() * bits / 8;
  int64_t rows = 1;
  for (int64_t d : ArrayRef<int64_t>(shape).drop_back())
    rows *= d;
  unsigned swizzle = 0;
  if (rows >= 8)
    for (unsigned candidate : {128u, 64u, 32u})
      if (rowBytes % candidate == 0) {
        swizzle = candidate;
        break;
      }
  return ttg::NVMMASharedEncodingAttr::get(block.getContext(), swizzle, /*transposed=*/false,
                                           bits, /*fp4Padded=*/false,
                                           unsigned(shape.size()), cgaLayout);
}

bool holdsTMABlock(ArrayRef<int64_t> block, ArrayRef<int64_t> shape) {
  if (shape.size() > block.size())
    return false;
  size_t dropped = block.size() - shape.size();
  return block.drop_front(dropped) == shape &&
         llvm::all_of(block.take_front(dropped), [](int64_t d) { return d == 1; });
}

ttg::MemDescType tmaBufferType(tt::TensorDescType desc, ArrayRef<int64_t> shape,
                               bool mutableMemory) {
  RankedTensorType block = desc.getSignlessBlockType();
  auto enc = dyn_cast_or_null<ttg::NVMMASharedEncodingAttr>(block.getEncoding());
  if (!enc || !holdsTMABlock(block.getShape(), shape))
    return {};
  MLIRContext *ctx = desc.getContext();
  if (shape.size() != size_t(block.getRank()))
    enc = ttg::NVMMASharedEncodingAttr::get(
        ctx, enc.getSwizzlingByteWidth(), enc.getTransposed(), enc.getElementBitWidth(),
        enc.getFp4Padded(), unsigned(shape.size()),
        ttg::rerankBases(enc.getCgaLayout(), block.getRank(), shape.size()));
  return ttg::MemDescType::get(shape, block.getElementType(), enc,
                               ttg::SharedMemorySpaceAttr::get(ctx), mutableMemory);
}

bool holdsTMABoxes(tt::TensorDescType desc, ArrayRef<int64_t> shape) {
  RankedTensorType block = desc.getSignlessBlockType();
  if (holdsTMABlock(block.getShape(), shape))
    return true;
  auto enc = dyn_cast_or_null<ttg::NVMMASharedEncodingAttr>(block.getEncoding());
  if (!enc || shape.empty() || !block.getElementType().isIntOrFloat())
    return false;
  SmallVector<int64_t> whole(block.getShape());
  int64_t inner = shape.back();
  if (!holdsTMABlock(ArrayRef<int64_t>(whole).drop_back(), shape.drop_back()))
    return false;
  // A row of one message spans the swizzle width (or the whole row).
  int64_t bits = block.getElementType().getIntOrFloatBitWidth();
  int64_t box = enc.getSwizzlingByteWidth() ? enc.getSwizzlingByteWidth() * 8 / bits : whole.back();
  return inner > 0 && inner < whole.back() && whole.back() % inner == 0 && inner % box == 0;
}

ttg::SwizzledSharedEncodingAttr barrierEncoding(Operation *at) {
  unsigned numCTAs = ttg::lookupNumCTAs(at);
  SmallVector<int32_t> replicated(llvm::Log2_32(numCTAs), 0);
  return ttg::SwizzledSharedEncodingAttr::get(at->getContext(), 1, 1, 1, {0}, replicated);
}

Value tmaStoreSource(Value src, ttg::MemDescType buffer) {
  auto cvt = src.getDefiningOp<ttg::ConvertLayoutOp>();
  if (!cvt)
    return src;
  auto from = dyn_cast_or_null<ttg::LayoutEncodingInterface>(
      cast<RankedTensorType>(cvt.getSrc().getType()).getEncoding());
  auto to = dyn_cast_or_null<ttg::LayoutEncodingInterface>(buffer.getEncoding());
  return from && to && from.getCGABases() == to.getCGABases() ? cvt.getSrc() : src;
}

int64_t bufferBytes(ttg::MemDescType type) {
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  for (int64_t d : ttg::ctaShape(type.getShape(), type.getEncoding()))
    bits *= d;
  return bits / 8;
}

} // namespace kiln::ttng

//===- Utility.cpp - layout choices shared by the ttgir passes ------------===//
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"

#include <algorithm>
#include <numeric>

using namespace mlir;

namespace kiln::ttg {

/// `enc` with its dimensions permuted as `tt.trans` with `order` permutes
/// the tensor (result dimension i is source dimension order[i]).
BlockedEncodingAttr transposeBlocked(BlockedEncodingAttr enc, ArrayRef<int32_t> order) {
  unsigned rank = order.size();
  SmallVector<unsigned> size(rank), lanes(rank), warps(rank), inverse(rank), newOrder;
  for (unsigned i = 0; i < rank; ++i) {
    size[i] = enc.getSizePerThread()[order[i]];
    lanes[i] = enc.getThreadsPerWarp()[order[i]];
    warps[i] = enc.getWarpsPerCTA()[order[i]];
    inverse[order[i]] = i;
  }
  for (unsigned d : enc.getOrder())
    newOrder.push_back(inverse[d]);
  return BlockedEncodingAttr::get(enc.getContext(), size, lanes, warps, newOrder);
}

MemDescType transposedType(MemDescType src, ArrayRef<int32_t> order) {
  auto enc = cast<NVMMASharedEncodingAttr>(src.getEncoding());
  auto flipped = NVMMASharedEncodingAttr::get(
      src.getContext(), enc.getSwizzlingByteWidth(), !enc.getTransposed(),
      enc.getElementBitWidth(), enc.getFp4Padded(), enc.getLayoutRank(), enc.getCgaLayout());
  ArrayRef<int64_t> alloc = src.getAllocShape();
  size_t lead = alloc.size() - src.getRank();
  SmallVector<int64_t> shape, allocShape(alloc.take_front(lead));
  for (int32_t d : order) {
    shape.push_back(src.getShape()[d]);
    allocShape.push_back(alloc[lead + d]);
  }
  return MemDescType::get(src.getContext(), shape, src.getElementType(), flipped,
                          src.getMemorySpace(), src.getMutableMemory(), allocShape);
}

FailureOr<std::optional<Target>> moduleTarget(ModuleOp module, StringRef pass) {
  auto name = module->getAttrOfType<StringAttr>("ttg.target");
  if (!name)
    return std::optional<Target>();
  llvm::Expected<Target> target = Target::parse(name.getValue());
  if (!target) {
    module.emitError() << pass << ": " << llvm::toString(target.takeError());
    return failure();
  }
  return std::optional<Target>(*target);
}

BlockedEncodingAttr buildBlockedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                         ArrayRef<unsigned> sizePerThread,
                                         ArrayRef<unsigned> order, unsigned numWarps,
                                         unsigned threadsPerWarp) {
  unsigned rank = shape.size();
  SmallVector<unsigned> lanes(rank, 1), warps(rank, 1);
  unsigned lanesLeft = threadsPerWarp, warpsLeft = numWarps, threadsLeft = numWarps * threadsPerWarp;
  // Fill the dimensions fastest first with as many threads as they have
  // elements; the slowest dimension takes whatever lanes and warps remain.
  for (unsigned k = 0; k + 1 < rank; ++k) {
    unsigned d = order[k];
    unsigned fits = std::max<int64_t>(1, shape[d] / sizePerThread[d]);
    unsigned threads = std::clamp(threadsLeft, 1u, fits);
    lanes[d] = std::clamp(threads, 1u, lanesLeft);
    warps[d] = std::clamp(threads / lanes[d], 1u, warpsLeft);
    lanesLeft /= lanes[d];
    warpsLeft /= warps[d];
    threadsLeft /= threads;
  }
  if (rank > 0) {
    lanes[order[rank - 1]] = lanesLeft;
    warps[order[rank - 1]] = warpsLeft;
  }
  return BlockedEncodingAttr::get(ctx, sizePerThread, lanes, warps, order);
}

BlockedEncodingAttr getDefaultBlockedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                              unsigned numWarps, unsigned threadsPerWarp) {
  SmallVector<unsigned> order(shape.size());
  std::iota(order.rbegin(), order.rend(), 0);
  SmallVector<unsigned> sizePerThread(shape.size(), 1);
  return buildBlockedEncoding(ctx, shape, sizePerThread, order, numWarps, threadsPerWarp);
}

} // namespace kiln::ttg

//===- Utility.cpp - layout choices shared by the ttgir passes ------------===//
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Layout/Queries.h"

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
  return BlockedEncodingAttr::get(enc.getContext(), size, lanes, warps, newOrder,
                                  transposeCGA(enc.getCgaLayout(), order));
}

SmallVector<int32_t> transposeCGA(ArrayRef<int32_t> cga, ArrayRef<int32_t> order) {
  unsigned rank = order.size();
  SmallVector<int32_t> result;
  for (size_t base = 0; rank && base + rank <= cga.size(); base += rank)
    for (unsigned i = 0; i < rank; ++i)
      result.push_back(cga[base + order[i]]);
  return result;
}

SmallVector<int32_t> defaultCGABases(ArrayRef<int64_t> shape, ArrayRef<unsigned> order,
                                     unsigned numCTAs, uint64_t keepWhole) {
  // As many CTAs as it has elements go to the most strided dimension, the
  // rest to the next, as Triton splits; the bases then follow `order`
  // (fastest first), as Triton's CGA layouts list them.
  unsigned rank = shape.size();
  SmallVector<int64_t> ctasAlong(rank, 1);
  int64_t remaining = numCTAs;
  for (unsigned i = rank; i-- > 0;) {
    unsigned d = order[i];
    if (keepWhole >> d & 1)
      continue;
    ctasAlong[d] = std::clamp<int64_t>(remaining, 1, std::max<int64_t>(1, shape[d]));
    remaining /= ctasAlong[d];
  }
  SmallVector<int32_t> bases;
  for (unsigned d : order)
    for (int64_t split = 1; split < ctasAlong[d]; split *= 2) {
      SmallVector<int32_t> basis(rank, 0);
      basis[d] = int32_t(split);
      llvm::append_range(bases, basis);
    }
  // CTAs left over hold copies.
  for (; remaining > 1; remaining /= 2)
    bases.append(rank, 0);
  return bases;
}

MemDescType transposedType(MemDescType src, ArrayRef<int32_t> order) {
  auto enc = cast<NVMMASharedEncodingAttr>(src.getEncoding());
  auto flipped = NVMMASharedEncodingAttr::get(
      src.getContext(), enc.getSwizzlingByteWidth(), !enc.getTransposed(),
      enc.getElementBitWidth(), enc.getFp4Padded(), enc.getLayoutRank(),
      transposeCGA(enc.getCgaLayout(), order));
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
                                         unsigned threadsPerWarp, ArrayRef<int32_t> cgaLayout) {
  unsigned rank = shape.size();
  // The threads of a CTA fill its tile: the shape less the CTA split.
  SmallVector<int64_t> tile = ctaShape(shape, cgaLayout);
  SmallVector<unsigned> lanes(rank, 1), warps(rank, 1);
  unsigned lanesLeft = threadsPerWarp, warpsLeft = numWarps, threadsLeft = numWarps * threadsPerWarp;
  // Fill the dimensions fastest first with as many threads as they have
  // elements; the slowest dimension takes whatever lanes and warps remain.
  for (unsigned k = 0; k + 1 < rank; ++k) {
    unsigned d = order[k];
    unsigned fits = std::max<int64_t>(1, tile[d] / sizePerThread[d]);
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
  return BlockedEncodingAttr::get(ctx, sizePerThread, lanes, warps, order, cgaLayout);
}

BlockedEncodingAttr getDefaultBlockedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                              unsigned numWarps, unsigned threadsPerWarp,
                                              unsigned numCTAs, uint64_t keepWhole) {
  SmallVector<unsigned> order(shape.size());
  std::iota(order.rbegin(), order.rend(), 0);
  SmallVector<unsigned> sizePerThread(shape.size(), 1);
  return buildBlockedEncoding(ctx, shape, sizePerThread, order, numWarps, threadsPerWarp,
                              defaultCGABases(shape, order, numCTAs, keepWhole));
}

/// `ll` without the size-2 last dimension of a tt.split's source, when
/// one register bit alone selects it (each thread holds both halves).
static std::optional<layout::LinearLayout> withoutPairDimension(const layout::LinearLayout &ll) {
  using layout::LinearLayout;
  unsigned rank = ll.getNumOutDims();
  std::vector<LinearLayout::InDim> ins;
  bool found = false;
  for (const LinearLayout::InDim &in : ll.getInDims()) {
    LinearLayout::InDim kept{in.name, {}};
    for (const LinearLayout::Basis &b : in.bases) {
      if (b[rank - 1] == 0) {
        kept.bases.emplace_back(b.begin(), b.end() - 1);
        continue;
      }
      bool alone = llvm::all_of(ArrayRef<int32_t>(b).drop_back(), [](int32_t c) { return !c; });
      if (in.name != layout::kRegister || !alone || found)
        return std::nullopt;
      found = true;
    }
    ins.push_back(std::move(kept));
  }
  std::vector<LinearLayout::DimSize> outs;
  SmallVector<StringRef> names = ll.getOutDimNames();
  for (StringRef name : ArrayRef(names).drop_back())
    outs.push_back({name.str(), ll.getOutDimSize(name)});
  llvm::Expected<LinearLayout> out = LinearLayout::create(std::move(ins), std::move(outs), true);
  if (!found || !out) {
    if (!out)
      llvm::consumeError(out.takeError());
    return std::nullopt;
  }
  return std::move(*out);
}

Attribute viewResultEncoding(Operation *op, Attribute encoding) {
  if (!isa<tt::TransOp, tt::ReshapeOp, tt::SplitOp>(op))
    return {};
  // A transposed blocked layout is blocked, as Triton writes it.
  if (auto trans = dyn_cast<tt::TransOp>(op))
    if (auto blocked = dyn_cast<BlockedEncodingAttr>(encoding))
      return transposeBlocked(blocked, trans.getOrder());
  auto src = cast<RankedTensorType>(op->getOperand(0).getType()).cloneWithEncoding(encoding);
  llvm::Expected<layout::LinearLayout> ll = toLinearLayout(src);
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return {};
  }
  std::optional<layout::LinearLayout> out;
  if (auto trans = dyn_cast<tt::TransOp>(op))
    out = layout::transposeLayout(
        *ll, SmallVector<unsigned>(trans.getOrder().begin(), trans.getOrder().end()));
  else if (auto reshape = dyn_cast<tt::ReshapeOp>(op))
    out = layout::reshapeLayout(*ll, reshape.getType().getShape());
  else
    out = withoutPairDimension(*ll);
  return out ? Attribute(linearEncoding(op->getContext(), *out)) : Attribute();
}

} // namespace kiln::ttg

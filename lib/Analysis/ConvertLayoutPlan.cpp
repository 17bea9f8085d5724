//===- ConvertLayoutPlan.cpp - how convert_layout and gather move data ----===//
#include "kiln/Analysis/ConvertLayoutPlan.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Layout/BitMatrix.h"
#include "kiln/Layout/Encodings.h"

#include "llvm/Support/MathExtras.h"

namespace kiln {

using layout::LinearLayout;

int64_t ConversionPlan::scratchBytes() const {
  if (path == ConversionPath::Cluster)
    return clusterTileElements * int64_t(elemBits / 8);
  if (path != ConversionPath::SharedMemory || !scratch)
    return 0;
  return scratch->elementsPerRound() * int64_t(elemBits / 8);
}

unsigned sharedElementBits(mlir::Type type) {
  if (mlir::isa<tt::PointerType>(type))
    return 64;
  return std::max(8u, type.getIntOrFloatBitWidth());
}

namespace {
/// Whether no lane basis of the map moves a register: each destination
/// register then reads one fixed source register of some lane.
bool lanesKeepRegisters(const LinearLayout &dstToSrc) {
  for (unsigned i = 0, e = dstToSrc.getInDimSizeLog2(layout::kLane); i < e; ++i)
    if (dstToSrc.getBasis(layout::kLane, i, layout::kRegister) != 0)
      return false;
  return true;
}
} // namespace

llvm::Expected<ConversionPlan> planConversion(const LinearLayout &src, const LinearLayout &dst,
                                              unsigned elemBits) {
  llvm::Expected<layout::ConversionKind> kind = layout::classifyConversion(src, dst);
  if (!kind)
    return kind.takeError();
  ConversionPlan plan;
  plan.elemBits = elemBits;
  std::optional<LinearLayout> map = dst.invertAndCompose(src);
  if (!map)
    return llvm::createStringError("the source layout does not hold every element");
  plan.dstToSrc = std::move(*map);
  switch (*kind) {
  case layout::ConversionKind::None:
    plan.path = src == dst ? ConversionPath::None : ConversionPath::Registers;
    return plan;
  case layout::ConversionKind::RegisterPermute:
    plan.path = ConversionPath::Registers;
    return plan;
  case layout::ConversionKind::WarpShuffle:
    if (lanesKeepRegisters(plan.dstToSrc)) {
      plan.path = ConversionPath::Shuffle;
      return plan;
    }
    break;
  case layout::ConversionKind::SharedMemory:
    break;
  case layout::ConversionKind::CrossCTA:
    return llvm::createStringError("conversions across the CTAs of a cluster are not lowered yet");
  }
  llvm::Expected<layout::ConversionScratch> scratch = layout::conversionScratch(src, dst, elemBits);
  if (!scratch)
    return scratch.takeError();
  plan.path = ConversionPath::SharedMemory;
  plan.scratch = std::move(*scratch);
  return plan;
}

llvm::Expected<ConversionPlan> planConversion(mlir::RankedTensorType src,
                                              mlir::RankedTensorType dst) {
  // Over the CTAs of a cluster, tile by tile when each CTA keeps its
  // elements, else through distributed shared memory.
  llvm::Expected<LinearLayout> srcAll = ttg::toLinearLayout(src);
  if (!srcAll)
    return srcAll.takeError();
  llvm::Expected<LinearLayout> dstAll = ttg::toLinearLayout(dst);
  if (!dstAll)
    return dstAll.takeError();
  auto blockBases = [](const LinearLayout &ll) {
    return ll.getInDims()[ll.getInDimIndex(layout::kBlock)].bases;
  };
  if (layout::isDistributed(*srcAll) && layout::isDistributed(*dstAll) &&
      blockBases(*srcAll) != blockBases(*dstAll)) {
    llvm::Expected<LinearLayout> tile = layout::ctaTile(*srcAll);
    if (!tile)
      return tile.takeError();
    ConversionPlan plan;
    plan.path = ConversionPath::Cluster;
    plan.elemBits = sharedElementBits(src.getElementType());
    plan.clusterTileElements = tile->getTotalOutDimSize();
    return plan;
  }
  llvm::Expected<LinearLayout> s = layout::ctaTile(*srcAll);
  if (!s)
    return s.takeError();
  llvm::Expected<LinearLayout> d = layout::ctaTile(*dstAll);
  if (!d)
    return d.takeError();
  return planConversion(*s, *d, sharedElementBits(src.getElementType()));
}

LinearLayout gatherScratchLayout(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<unsigned> order, sizes;
  for (unsigned d = shape.size(); d-- > 0;)
    order.push_back(d);
  for (int64_t s : shape)
    sizes.push_back(unsigned(s));
  LinearLayout ll = layout::identityStandardND(layout::kOffset, sizes, order);
  llvm::SmallVector<std::string> names = layout::standardDimNames(shape.size());
  return ll.transposeOuts(llvm::SmallVector<llvm::StringRef>(names.begin(), names.end()));
}

GatherPlan planGather(mlir::RankedTensorType src, mlir::RankedTensorType indices, unsigned axis) {
  GatherPlan plan;
  llvm::Expected<LinearLayout> s = ttg::toLinearLayout(src);
  llvm::Expected<LinearLayout> i = ttg::toLinearLayout(indices);
  llvm::Expected<LinearLayout> sTile = s ? layout::ctaTile(*s) : s.takeError();
  llvm::Expected<LinearLayout> iTile = i ? layout::ctaTile(*i) : i.takeError();
  std::optional<LinearLayout> map;
  if (sTile && iTile)
    map = layout::warpLocalGather(*sTile, *iTile, axis);
  llvm::consumeError(sTile.takeError());
  llvm::consumeError(iTile.takeError());
  if (map) {
    // The register part of every basis that varies at run time (lane, warp,
    // index): the span a result register's source register ranges over.
    layout::XorBasis span;
    for (llvm::StringRef in : {layout::kLane, layout::kWarp, layout::kGatherIndex})
      for (unsigned b = 0, e = map->getInDimSizeLog2(in); b < e; ++b) {
        int32_t reg = map->getBasis(in, b, layout::kRegister);
        if (span.insert(uint64_t(reg)))
          plan.candidateBits.push_back(reg);
      }
    if ((1u << plan.candidateBits.size()) <= kMaxGatherShuffles) {
      plan.shuffles = std::move(map);
      return plan;
    }
    plan.candidateBits.clear();
  }
  plan.scratchBytes = src.getNumElements() * int64_t(sharedElementBits(src.getElementType()) / 8);
  return plan;
}

} // namespace kiln

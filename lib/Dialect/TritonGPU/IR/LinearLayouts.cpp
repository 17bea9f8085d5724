//===- LinearLayouts.cpp - ttg encodings as linear layouts ----------------===//
//
// Each encoding attribute hands its parameters to kiln/Layout, which owns
// Triton's bases; nothing here computes a basis itself.
//
//===----------------------------------------------------------------------===//
#include "kiln/Layout/Queries.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "kiln/Layout/Encodings.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::ttg;
using layout::LinearLayout;

namespace {

layout::CGABases toCGABases(ArrayRef<int32_t> flat, unsigned rank) {
  layout::CGABases bases;
  for (const SmallVector<int32_t> &basis : unflattenBases(flat, rank))
    bases.emplace_back(basis.begin(), basis.end());
  return bases;
}

llvm::Error rankMismatch(unsigned rank, size_t shapeRank) {
  return llvm::createStringError("a rank-" + llvm::Twine(rank) +
                                 " encoding cannot lay out a rank-" + llvm::Twine(shapeRank) +
                                 " tensor");
}

} // namespace

llvm::Expected<LinearLayout> BlockedEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  if (shape.size() != getRank())
    return rankMismatch(getRank(), shape.size());
  layout::BlockedEncoding enc;
  enc.sizePerThread.assign(getSizePerThread().begin(), getSizePerThread().end());
  enc.threadsPerWarp.assign(getThreadsPerWarp().begin(), getThreadsPerWarp().end());
  enc.warpsPerCTA.assign(getWarpsPerCTA().begin(), getWarpsPerCTA().end());
  enc.order.assign(getOrder().begin(), getOrder().end());
  enc.cgaLayout = toCGABases(getCgaLayout(), getRank());
  return layout::toLinearLayout(enc, shape);
}

llvm::Expected<LinearLayout> SliceEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  if (shape.size() != getRank())
    return rankMismatch(getRank(), shape.size());
  llvm::Expected<LinearLayout> parent =
      getParent().toLinearLayout(layout::sliceParentShape(shape, getDim()));
  if (!parent)
    return parent.takeError();
  return layout::sliceLayout(*parent, getDim());
}

llvm::Expected<LinearLayout> LinearEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  unsigned rank = getNumDims();
  if (shape.size() != rank)
    return rankMismatch(rank, shape.size());
  // The bases describe one CTA's tile and the CGA; fitting them to `shape`
  // (repeating in registers, or broadcasting) is the engine's, as for every
  // other encoding.
  std::vector<LinearLayout::InDim> ins;
  auto addInput = [&](StringRef name, ArrayRef<int32_t> flat) {
    LinearLayout::InDim in{name.str(), {}};
    for (const SmallVector<int32_t> &basis : unflattenBases(flat, rank))
      in.bases.emplace_back(basis.begin(), basis.end());
    ins.push_back(std::move(in));
  };
  addInput(layout::kRegister, getRegisterBases());
  addInput(layout::kLane, getLaneBases());
  addInput(layout::kWarp, getWarpBases());
  llvm::Expected<LinearLayout> cta =
      LinearLayout::create(std::move(ins), layout::standardDimNames(rank));
  if (!cta)
    return cta.takeError();
  return layout::combineCtaCgaWithShape(*cta, toCGABases(getBlockBases(), rank), shape);
}

llvm::Expected<LinearLayout>
SwizzledSharedEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  if (shape.size() != getRank())
    return rankMismatch(getRank(), shape.size());
  layout::SwizzledSharedEncoding enc;
  enc.vec = getVec();
  enc.perPhase = getPerPhase();
  enc.maxPhase = getMaxPhase();
  enc.order.assign(getOrder().begin(), getOrder().end());
  enc.cgaLayout = toCGABases(getCgaLayout(), getRank());
  return layout::toLinearLayout(enc, shape);
}

namespace {
layout::NvidiaMmaEncoding toEngine(NvidiaMmaEncodingAttr mma) {
  layout::NvidiaMmaEncoding enc;
  enc.versionMajor = mma.getVersionMajor();
  enc.versionMinor = mma.getVersionMinor();
  enc.warpsPerCTA.assign(mma.getWarpsPerCTA().begin(), mma.getWarpsPerCTA().end());
  enc.instrShape.assign(mma.getInstrShape().begin(), mma.getInstrShape().end());
  enc.cgaLayout = toCGABases(mma.getCgaLayout(), mma.getRank());
  return enc;
}
} // namespace

llvm::Expected<LinearLayout> NvidiaMmaEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  if (shape.size() != getRank())
    return rankMismatch(getRank(), shape.size());
  return layout::toLinearLayout(toEngine(*this), shape);
}

llvm::Expected<LinearLayout> DotOperandEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  if (shape.size() != getRank())
    return rankMismatch(getRank(), shape.size());
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(getParent())) {
    layout::BlockedDotOperandEncoding enc;
    enc.opIdx = getOpIdx();
    enc.parent.sizePerThread.assign(blocked.getSizePerThread().begin(),
                                    blocked.getSizePerThread().end());
    enc.parent.threadsPerWarp.assign(blocked.getThreadsPerWarp().begin(),
                                     blocked.getThreadsPerWarp().end());
    enc.parent.warpsPerCTA.assign(blocked.getWarpsPerCTA().begin(),
                                  blocked.getWarpsPerCTA().end());
    enc.parent.order.assign(blocked.getOrder().begin(), blocked.getOrder().end());
    enc.parent.cgaLayout = toCGABases(blocked.getCgaLayout(), getRank());
    return layout::toLinearLayout(enc, shape);
  }
  layout::NvidiaDotOperandEncoding enc;
  enc.opIdx = getOpIdx();
  enc.kWidth = getKWidth();
  enc.parent = toEngine(cast<NvidiaMmaEncodingAttr>(getParent()));
  return layout::toLinearLayout(enc, shape);
}

llvm::Expected<LinearLayout>
NVMMASharedEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  if (shape.size() != getRank())
    return rankMismatch(getRank(), shape.size());
  layout::NVMMASharedEncoding enc;
  enc.swizzlingByteWidth = getSwizzlingByteWidth();
  enc.elementBitWidth = getElementBitWidth();
  enc.rank = getRank();
  enc.transposed = getTransposed();
  enc.fp4Padded = getFp4Padded();
  enc.cgaLayout = toCGABases(getCgaLayout(), getRank());
  return layout::toLinearLayout(enc, shape);
}

llvm::Expected<LinearLayout> kiln::ttg::sharedLinearCTALayout(ArrayRef<int32_t> offsetBases,
                                                             unsigned rank) {
  LinearLayout::InDim offset{layout::kOffset.str(), {}};
  for (const SmallVector<int32_t> &basis : unflattenBases(offsetBases, rank))
    offset.bases.emplace_back(basis.begin(), basis.end());
  llvm::Expected<LinearLayout> ll =
      LinearLayout::create({std::move(offset)}, layout::standardDimNames(rank));
  if (ll && !ll->isInvertible())
    return llvm::createStringError(
        "the offset bases must place each element of the tile at one offset");
  return ll;
}

llvm::Expected<SmallVector<int32_t>>
kiln::ttg::sharedLinearCGABases(ArrayRef<int32_t> offsetBases, ArrayRef<int32_t> blockBases,
                                unsigned rank) {
  llvm::Expected<LinearLayout> cta = sharedLinearCTALayout(offsetBases, rank);
  if (!cta)
    return cta.takeError();
  SmallVector<int32_t> tiles(blockBases);
  for (auto [i, v] : llvm::enumerate(tiles)) {
    int32_t tile = cta->getOutDimSize(layout::dimName(i % rank));
    if (v % tile != 0)
      return llvm::createStringError("a block basis moves by " + llvm::Twine(v) +
                                     " along dimension " + llvm::Twine(i % rank) +
                                     ", not by whole tiles of " + llvm::Twine(tile));
    v /= tile;
  }
  return tiles;
}

namespace {
/// The layout of a buffer of `shape` under offset and block bases written
/// for its tile: #ttg.shared_linear's, #ttg.padded_shared's.
llvm::Expected<LinearLayout> basesLayout(ArrayRef<int32_t> offsetBases,
                                         const SmallVector<SmallVector<int32_t>> &cgaBases,
                                         unsigned rank, ArrayRef<int64_t> shape) {
  if (shape.size() != rank)
    return rankMismatch(rank, shape.size());
  llvm::Expected<LinearLayout> cta = sharedLinearCTALayout(offsetBases, rank);
  if (!cta)
    return cta.takeError();
  layout::CGABases cga;
  for (const SmallVector<int32_t> &basis : cgaBases)
    cga.emplace_back(basis.begin(), basis.end());
  // The bases describe the tile they were written for; a buffer of another
  // shape would need them repeated or cut, which would move its elements.
  llvm::Expected<SmallVector<int64_t>> tile = layout::ctaTileShape(cga, shape);
  if (!tile)
    return tile.takeError();
  for (unsigned d = 0; d < rank; ++d)
    if (cta->getOutDimSize(layout::dimName(d)) != (*tile)[d])
      return llvm::createStringError(
          "the encoding's bases lay out a tile of " +
          llvm::Twine(cta->getOutDimSize(layout::dimName(d))) + " along dimension " +
          llvm::Twine(d) + ", not the " + llvm::Twine((*tile)[d]) + " of this buffer's tile");
  return layout::combineCtaCgaWithShape(*cta, cga, shape);
}
} // namespace

llvm::Expected<LinearLayout>
SharedLinearEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  return basesLayout(getOffsetBases(), getCGABases(), getNumDims(), shape);
}

llvm::Expected<LinearLayout>
PaddedSharedEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  // The logical offsets; the pads are added where addresses are computed.
  return basesLayout(getOffsetBases(), getCGABases(), getNumDims(), shape);
}

llvm::Expected<LinearLayout> kiln::ttg::toLinearLayout(RankedTensorType type) {
  auto encoding = dyn_cast_or_null<LayoutEncodingInterface>(type.getEncoding());
  if (!encoding)
    return llvm::createStringError("tensor type has no ttg layout encoding");
  return encoding.toLinearLayout(type.getShape());
}

SmallVector<int64_t> kiln::ttg::ctaShape(ArrayRef<int64_t> shape, Attribute encoding) {
  SmallVector<int64_t> tile(shape);
  auto enc = dyn_cast_or_null<LayoutEncodingInterface>(encoding);
  if (!enc || enc.getRank() > shape.size())
    return tile;
  size_t lead = shape.size() - enc.getRank();
  for (const SmallVector<int32_t> &basis : enc.getCGABases())
    for (auto [d, c] : llvm::enumerate(basis))
      if (c != 0 && lead + d < tile.size())
        tile[lead + d] = std::max<int64_t>(1, tile[lead + d] / 2);
  return tile;
}

SmallVector<int64_t> kiln::ttg::ctaShape(ArrayRef<int64_t> shape, ArrayRef<int32_t> cgaLayout) {
  SmallVector<int64_t> tile(shape);
  for (size_t i = 0; !tile.empty() && i < cgaLayout.size(); ++i)
    if (cgaLayout[i] != 0)
      tile[i % tile.size()] = std::max<int64_t>(1, tile[i % tile.size()] / 2);
  return tile;
}

bool kiln::ttg::isSplitOverCTAs(RankedTensorType type, unsigned axis) {
  llvm::Expected<LinearLayout> ll = toLinearLayout(type);
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return false;
  }
  return axis < type.getRank() && layout::blockCoordinateBits(*ll)[axis] != 0;
}

llvm::Expected<LinearLayout> kiln::ttg::toCTALinearLayout(RankedTensorType type) {
  llvm::Expected<LinearLayout> ll = toLinearLayout(type);
  if (!ll)
    return ll.takeError();
  return layout::ctaTile(*ll);
}

LinearEncodingAttr kiln::ttg::linearEncoding(MLIRContext *ctx, const LinearLayout &ll) {
  SmallVector<int32_t> flat[4];
  StringRef names[4] = {layout::kRegister, layout::kLane, layout::kWarp, layout::kBlock};
  for (const LinearLayout::InDim &in : ll.getInDims())
    for (unsigned i = 0; i < 4; ++i)
      if (in.name == names[i])
        for (const LinearLayout::Basis &b : in.bases)
          flat[i].append(b.begin(), b.end());
  return LinearEncodingAttr::get(ctx, ll.getNumOutDims(), flat[0], flat[1], flat[2], flat[3]);
}

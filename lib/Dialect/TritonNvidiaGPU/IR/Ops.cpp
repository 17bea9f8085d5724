//===- Ops.cpp - ttng ops: verifiers, memory effects, type inference ------===//
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/WGMMA.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace kiln::ttng;
using kiln::ttg::MemDescType;

#define GET_OP_CLASSES
#include "kiln/Dialect/TritonNvidiaGPU/IR/Ops.cpp.inc"

namespace {

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string out = "[";
  llvm::raw_string_ostream os(out);
  llvm::interleaveComma(shape, os);
  return out + "]";
}

/// An mbarrier is one 64-bit word of mutable shared memory.
LogicalResult verifyBarrier(Operation *op, MemDescType type, StringRef what = "barrier") {
  if (type.getShape() != ArrayRef<int64_t>{1} || !type.getElementType().isInteger(64))
    return op->emitOpError() << what << " must be a memdesc of one i64, got " << type;
  if (!type.getMutableMemory())
    return op->emitOpError() << what << " must be mutable";
  return success();
}

/// Only arrivals go to another CTA's mbarrier.
LogicalResult verifyLocalBarrier(Operation *op, MemDescType type, StringRef what = "barrier") {
  if (isRemote(type))
    return op->emitOpError() << what << " must be in the CTA's own shared memory, got " << type;
  return verifyBarrier(op, type, what);
}

/// TTIR (no ttg.target yet, as a plugin's ops reach it) does not know its
/// cluster yet.
bool inTTIR(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  return module && !module->hasAttr(kiln::ttg::TritonGPUDialect::kTargetAttr);
}

/// Cluster ops need a program of several CTAs.
LogicalResult verifyInCluster(Operation *op) {
  if (inTTIR(op))
    return success();
  if (kiln::ttg::lookupClusterCTAs(op) < 2)
    return op->emitOpError() << "needs a thread-block cluster (compile with num_ctas > 1)";
  return success();
}

/// A TMA copy moves one block of the descriptor, or whole messages of it
/// along the innermost dimension, addressed by one coordinate per
/// dimension, to or from a buffer of that shape.
LogicalResult verifyTMACopy(Operation *op, kiln::tt::TensorDescType desc, size_t numCoords,
                            MemDescType buffer) {
  RankedTensorType block = desc.getSignlessBlockType();
  if (numCoords != size_t(block.getRank()))
    return op->emitOpError() << "needs " << block.getRank()
                             << " coordinates for the descriptor's block, got " << numCoords;
  if (buffer.getElementType() != block.getElementType())
    return op->emitOpError() << "buffer element type " << buffer.getElementType()
                             << " does not match the descriptor's " << block.getElementType();
  if (!kiln::ttng::holdsTMABoxes(desc, buffer.getShape()))
    return op->emitOpError() << "buffer shape " << shapeString(buffer.getShape())
                             << " does not match the descriptor's block shape "
                             << shapeString(block.getShape())
                             << " (nor whole TMA messages of it along the innermost dimension)";
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// warp_group_dot
//===----------------------------------------------------------------------===//

LogicalResult WarpGroupDotOp::verify() {
  auto aShaped = cast<ShapedType>(getA().getType());
  MemDescType b = getB().getType();
  RankedTensorType c = getC().getType();
  if (aShaped.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError() << "operands must have rank 2";
  ArrayRef<int64_t> aShape = aShaped.getShape(), bShape = b.getShape(), cShape = c.getShape();
  if (aShape[1] != bShape[0])
    return emitOpError() << "K of a (" << aShape[1] << ") and of b (" << bShape[0]
                         << ") differ";
  if (cShape[0] != aShape[0] || cShape[1] != bShape[1])
    return emitOpError() << "accumulator shape " << shapeString(cShape) << " must be [M, N] = ["
                         << aShape[0] << ", " << bShape[1] << "]";
  if (aShaped.getElementType() != b.getElementType())
    return emitOpError() << "a and b element types differ (" << aShaped.getElementType()
                         << " and " << b.getElementType() << ")";
  // Written before layouts: an A in registers gets its layout from the
  // accumulator's (ttgir-convert-from-ttir), so has none yet.
  if (!c.getEncoding()) {
    auto aTensor = dyn_cast<RankedTensorType>(aShaped);
    if (aTensor && aTensor.getEncoding())
      return emitOpError() << "written before layouts (an accumulator without encoding), a "
                              "must have no layout either";
    return success();
  }
  // wgmma's accumulator fragment is the version-3 MMA layout.
  auto mma = dyn_cast_or_null<kiln::ttg::NvidiaMmaEncodingAttr>(c.getEncoding());
  if (!mma || mma.getVersionMajor() != 3)
    return emitOpError() << "accumulator must have a #ttg.nvidia_mma encoding of version 3";
  return success();
}

// The operands in shared memory are read; the accumulator is in registers.
void WarpGroupDotOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (isa<MemDescType>(getA().getType()))
    effects.emplace_back(MemoryEffects::Read::get(), &getAMutable(),
                         kiln::ttg::SharedMemory::get());
  effects.emplace_back(MemoryEffects::Read::get(), &getBMutable(),
                       kiln::ttg::SharedMemory::get());
}

LogicalResult WarpGroupDotOp::assignLayouts(unsigned numWarps, unsigned, unsigned numCTAs) {
  RankedTensorType d = getD().getType();
  if (d.getEncoding())
    return success();
  if (numCTAs != 1)
    return emitOpError() << "written before layouts is supported in programs of one CTA, not "
                         << numCTAs;
  if (numWarps % 4 != 0)
    return emitOpError() << "needs whole warp groups (num_warps a multiple of 4), got "
                         << numWarps;
  Type element = getB().getType().getElementType();
  SmallVector<unsigned> instr = wgmmaInstrShape(d.getShape(), element, numWarps);
  // A product with A in registers is the second of a chain (attention's
  // P @ V): all warps along M, as accelerate-matmul lays out chains, so
  // that the first product's result becomes this A without moving rows.
  bool chained = isa<RankedTensorType>(getA().getType());
  auto mma = kiln::ttg::NvidiaMmaEncodingAttr::get(
      getContext(), 3, 0, wgmmaWarpsPerCTA(d.getShape(), numWarps, chained), ArrayRef<int32_t>(),
      instr);
  getD().setType(d.cloneWithEncoding(mma));
  return success();
}

Type WarpGroupDotOp::requiredOperandType(unsigned index) {
  // The accumulator is in the result's layout; an A in registers in its
  // operand layout (32 bits of K per thread and register); memdescs as
  // they are.
  auto mma = getD().getType().getEncoding();
  if (index == 2)
    return getD().getType();
  auto a = dyn_cast<RankedTensorType>(getOperand(index).getType());
  if (index != 0 || !a)
    return getOperand(index).getType();
  unsigned kWidth = std::max(32u / a.getElementType().getIntOrFloatBitWidth(), 1u);
  return a.cloneWithEncoding(kiln::ttg::DotOperandEncodingAttr::get(
      getContext(), 0, cast<kiln::ttg::DistributedEncodingInterface>(mma), kWidth));
}

LogicalResult WarpGroupDotWaitOp::assignLayouts(unsigned, unsigned, unsigned) {
  for (auto [input, output] : llvm::zip_equal(getInputs(), getOutputs()))
    output.setType(input.getType());
  return success();
}

Type WarpGroupDotWaitOp::requiredOperandType(unsigned index) {
  return getOperand(index).getType();
}

LogicalResult WarpGroupDotWaitOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "needs at least one value to wait for";
  if (getPendingsAttr().getInt() < 0) // signed: getPendings() is unsigned
    return emitOpError() << "pendings must not be negative";
  return success();
}

LogicalResult WarpGroupDotWaitOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &inferredReturnTypes) {
  // Each result is its input, released by the wait.
  llvm::append_range(inferredReturnTypes, operands.getTypes());
  return success();
}

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

LogicalResult InitBarrierOp::verify() {
  if (getCountAttr().getInt() < 1)
    return emitOpError() << "count must be at least 1, got " << getCountAttr().getInt();
  return verifyLocalBarrier(*this, getAlloc().getType());
}

LogicalResult InvalBarrierOp::verify() { return verifyLocalBarrier(*this, getAlloc().getType()); }

LogicalResult BarrierExpectOp::verify() {
  if (getSizeAttr().getInt() < 0)
    return emitOpError() << "size must not be negative, got " << getSizeAttr().getInt();
  return verifyLocalBarrier(*this, getAlloc().getType());
}

LogicalResult WaitBarrierOp::verify() { return verifyLocalBarrier(*this, getAlloc().getType()); }

LogicalResult MapToRemoteBufferOp::verify() {
  MemDescType src = getSrc().getType(), result = getResult().getType();
  if (isRemote(src))
    return emitOpError() << "maps a buffer of the CTA's own shared memory, got " << src;
  if (!isRemote(result))
    return emitOpError() << "result must be in #ttng.shared_cluster_memory, got " << result;
  if (src.getShape() != result.getShape() || src.getElementType() != result.getElementType() ||
      src.getEncoding() != result.getEncoding() ||
      src.getMutableMemory() != result.getMutableMemory() ||
      src.getAllocShape() != result.getAllocShape())
    return emitOpError() << "result " << result << " must be " << src
                         << " in another memory space";
  return verifyInCluster(*this);
}

LogicalResult FenceMBarrierInitReleaseClusterOp::verify() { return verifyInCluster(*this); }
LogicalResult ClusterArriveOp::verify() { return verifyInCluster(*this); }
LogicalResult ClusterWaitOp::verify() { return verifyInCluster(*this); }

//===----------------------------------------------------------------------===//
// TMA copies
//===----------------------------------------------------------------------===//

LogicalResult AsyncTMACopyGlobalToLocalOp::verify() {
  if (failed(verifyLocalBarrier(*this, getBarrier().getType())))
    return failure();
  MemDescType result = getResult().getType();
  if (!result.getMutableMemory())
    return emitOpError() << "cannot copy into an immutable memdesc";
  if (getCtaMask() && getMulticast())
    return emitOpError() << "takes either multicast (the layout's CTAs share the copy) or a "
                            "multicast_mask, not both";
  if (Value mask = getCtaMask()) {
    if (failed(verifyInCluster(*this)))
      return failure();
    // The CTAs each hold the whole buffer (each runs the program alone).
    bool ttir = inTTIR(*this);
    if (!ttir && kiln::ttg::lookupNumCTAs(*this) != 1)
      return emitOpError() << "takes a multicast_mask only where each CTA runs the program "
                              "alone (ttg.cluster-ctas), not over layouts split by ttg.num-ctas";
    APInt constant;
    unsigned cluster = kiln::ttg::lookupClusterCTAs(*this);
    if (!ttir && matchPattern(mask, m_ConstantInt(&constant)) &&
        (constant.isZero() || constant.getZExtValue() >= (uint64_t(1) << cluster)))
      return emitOpError() << "multicast_mask " << constant.getZExtValue()
                           << " names no CTA, or one beyond the cluster's " << cluster;
  }
  return verifyTMACopy(*this, getDesc().getType(), getCoord().size(), result);
}

LogicalResult AsyncTMACopyLocalToGlobalOp::verify() {
  return verifyTMACopy(*this, getDesc().getType(), getCoord().size(), getSrc().getType());
}

LogicalResult AsyncTMAPrefetchOp::verify() {
  size_t rank = getDesc().getType().getSignlessBlockType().getRank();
  if (getCoord().size() != rank)
    return emitOpError() << "needs " << rank << " coordinates for the descriptor's block, got "
                         << getCoord().size();
  return success();
}

LogicalResult TMAStoreWaitOp::verify() {
  if (getPendingsAttr().getInt() < 0) // signed: getPendings() is unsigned
    return emitOpError() << "pendings must not be negative";
  return success();
}

/// Hardware barriers 0 to 15, counted in whole warps (when the operands are
/// constants; otherwise the hardware's rule holds at run time).
static LogicalResult verifyNamedBarrier(Operation *op, Value bar, Value numThreads) {
  APInt id, threads;
  if (matchPattern(bar, m_ConstantInt(&id)) && (id.isNegative() || id.sge(16)))
    return op->emitOpError() << "names barrier " << id.getSExtValue()
                             << "; the hardware has barriers 0 to 15";
  if (matchPattern(numThreads, m_ConstantInt(&threads)) &&
      (threads.getSExtValue() <= 0 || threads.getSExtValue() % 32))
    return op->emitOpError() << "counts " << threads.getSExtValue()
                             << " threads; expected a positive multiple of 32 (whole warps)";
  return success();
}

LogicalResult NamedBarrierArriveOp::verify() {
  return verifyNamedBarrier(*this, getBar(), getNumThreads());
}

LogicalResult NamedBarrierWaitOp::verify() {
  return verifyNamedBarrier(*this, getBar(), getNumThreads());
}

LogicalResult ArriveBarrierOp::verify() {
  if (getCountAttr().getInt() < 1)
    return emitOpError() << "count must be at least 1, got " << getCountAttr().getInt();
  if (Attribute warps = (*this)->getAttr(kWarpsPerArrivalAttr)) {
    auto n = dyn_cast<IntegerAttr>(warps);
    if (!n || n.getInt() < 1 || n.getInt() > 32 || !llvm::isPowerOf2_64(n.getInt()))
      return emitOpError() << "'" << kWarpsPerArrivalAttr
                           << "' must be a power of two from 1 to 32 (warps per arriving thread), got "
                           << warps;
  }
  return verifyBarrier(*this, getAlloc().getType());
}

LogicalResult AsyncTMAReduceOp::verify() {
  return verifyTMACopy(*this, getDesc().getType(), getCoord().size(), getSrc().getType());
}

//===----------------------------------------------------------------------===//
// Tensor maps made on the device
//===----------------------------------------------------------------------===//

// TMA tensors have rank 1 to 5; every dimension but the innermost has a
// byte stride.
LogicalResult TensormapCreateOp::verify() {
  size_t rank = getBoxDim().size();
  if (rank < 1 || rank > 5)
    return emitOpError() << "a tensor map has 1 to 5 dimensions, got " << rank;
  if (getGlobalDim().size() != rank || getElementStride().size() != rank)
    return emitOpError() << "needs " << rank << " global_dim and element_stride values (one per "
                         << "box dimension), got " << getGlobalDim().size() << " and "
                         << getElementStride().size();
  if (getGlobalStride().size() != rank - 1)
    return emitOpError() << "needs " << rank - 1
                         << " global_stride values (every dimension but the innermost), got "
                         << getGlobalStride().size();
  return success();
}

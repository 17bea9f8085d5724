//===- AccelerateMatmul.cpp - ttgir-accelerate-matmul ---------------------===//
//
// tt.dot onto NVIDIA's tensor cores with Triton 3.6's choices (version,
// instruction shape, warp tiling, operand paths), so that kiln's TTGIR of a
// kernel reads like Triton's and the later passes (pipelining, lowering)
// meet the forms they expect.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/NVIDIA/Transforms/Passes.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"

#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/WGMMA.h"
#include "kiln/Layout/Queries.h"
#include "kiln/Base/Options.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace kiln::nvidia {
#define GEN_PASS_DEF_ACCELERATEMATMUL
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"
} // namespace kiln::nvidia

using namespace mlir;
using namespace kiln;
using namespace kiln::ttg;

namespace {

bool isFp8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

unsigned bitsOf(Type t) { return t.getIntOrFloatBitWidth(); }

/// Elements each thread holds consecutively along K in a register operand.
unsigned mmaKWidth(Type elem) { return std::max(32u / bitsOf(elem), 1u); }

/// Whether the tensor cores multiply these operands into this accumulator.
bool hasMmaTypes(tt::DotOp dot, int version, int capability) {
  Type a = dot.getA().getType().getElementType(), b = dot.getB().getType().getElementType();
  Type c = dot.getC().getType().getElementType();
  if (a != b) // e4m3 x e5m2 would need a B type of its own in the lowerings
    return false;
  if (isFp8(a)) // wgmma also accumulates them in f16
    return (version == 3 && c.isF16()) || ((version == 3 || capability >= 89) && c.isF32());
  if (a.isF16())
    return c.isF32() || c.isF16();
  if (a.isBF16())
    return c.isF32();
  if (a.isF32())
    return c.isF32() && dot.getInputPrecision() == tt::InputPrecision::TF32;
  if (a.isInteger(8))
    return c.isInteger(32);
  return false;
}

/// The CGA layout (flattened) of the dot's result: in a program of several
/// CTAs, the accumulator stays split over them as the result's layout is.
SmallVector<int32_t> resultCGA(tt::DotOp dot) {
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(dot.getC().getType().getEncoding()))
    return SmallVector<int32_t>(blocked.getCgaLayout());
  return {};
}

/// The part of the result one CTA computes (all of it in a program of one
/// CTA): what instruction shapes and warps are chosen for.
SmallVector<int64_t> resultTile(tt::DotOp dot) {
  return ctaShape(dot.getC().getType().getShape(), resultCGA(dot));
}

/// Whether the instructions of mma `version` can compute `dot`, judged, as
/// Triton judges it, on the part of the result one CTA computes: a
/// wgmma's warp group takes 64 rows of it.
bool supportsMma(tt::DotOp dot, int version, int capability, unsigned numWarps) {
  if (!hasMmaTypes(dot, version, capability))
    return false;
  RankedTensorType cType = dot.getC().getType();
  Type elem = dot.getA().getType().getElementType();
  unsigned rank = cType.getRank();
  SmallVector<int64_t> tile = resultTile(dot);
  int64_t m = tile[rank - 2], n = tile[rank - 1];
  int64_t k = dot.getA().getType().getShape()[rank - 1];
  if (version == 3) {
    // Below 32 accumulating steps fp8 products lose too much in wgmma's
    // f32 adder tree; Triton keeps them on mma.sync. From 32 on, the
    // lowering adds runs of that many products into the accumulator in f32.
    int64_t imprecise = dot.getMaxNumImpreciseAcc();
    if (isFp8(elem) && cType.getElementType().isF32() && imprecise < 32)
      return false;
    return rank == 2 && numWarps % 4 == 0 && m % 64 == 0 && n % 8 == 0 && k >= 256 / bitsOf(elem);
  }
  // One m16n8 instruction must fit, or the layouts would replicate K.
  return m >= 16 && n >= 8 && k >= int64_t(mmaKWidth(elem)) * 8;
}

/// Whether `dot` feeds (or, with `fedToo`, is fed by) another dot of its
/// region, as attention's two products: every warp then goes along one
/// dimension (Triton looks both ways for mma.sync, forward for wgmma).
bool hasChainedDot(Operation *dot, bool fedToo) {
  auto sameRegion = [&](Operation *op) { return op->getParentRegion() == dot->getParentRegion(); };
  SetVector<Operation *> slice;
  ForwardSliceOptions forward;
  forward.filter = sameRegion;
  getForwardSlice(dot->getResult(0), &slice, forward);
  if (fedToo) {
    BackwardSliceOptions backward;
    backward.filter = sameRegion;
    backward.omitBlockArguments = true;
    (void)getBackwardSlice(dot, &slice, backward);
  }
  return llvm::any_of(slice, [&](Operation *op) { return op != dot && isa<tt::DotOp>(op); });
}

SmallVector<unsigned> mmaV3InstrShape(tt::DotOp dot, unsigned numWarps) {
  return ttng::wgmmaInstrShape(resultTile(dot), dot.getA().getType().getElementType(), numWarps);
}

SmallVector<unsigned> mmaV3WarpsPerCTA(tt::DotOp dot, unsigned numWarps) {
  return ttng::wgmmaWarpsPerCTA(resultTile(dot), numWarps, hasChainedDot(dot, /*fedToo=*/false));
}

SmallVector<unsigned> mmaV2WarpsPerCTA(tt::DotOp dot, unsigned numWarps) {
  SmallVector<int64_t> shape = resultTile(dot);
  unsigned rank = shape.size();
  if (rank == 3)
    return {numWarps, 1, 1};
  if (hasChainedDot(dot, /*fedToo=*/true))
    return shape[0] >= shape[1] ? SmallVector<unsigned>{numWarps, 1}
                                : SmallVector<unsigned>{1, numWarps};
  // Registers per thread grow with repM * 4 + repN * 2 (A's fragment is
  // twice B's), so keep the repetitions along M and N balanced, ties to M.
  int64_t repM = std::max<int64_t>(shape[0] / 16, 1), repN = std::max<int64_t>(shape[1] / 8, 1);
  SmallVector<unsigned> warps = {1, 1};
  while (warps[0] * warps[1] < numWarps) {
    if (repM >= repN) {
      warps[0] *= 2;
      repM = std::max<int64_t>(repM / 2, 1);
    } else {
      warps[1] *= 2;
      repN /= 2;
    }
  }
  return warps;
}

/// A value that reaches the dot straight from memory (through layout
/// conversions and transposes) stays in shared memory for wgmma.
bool comesFromLoadOrArgument(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<ConvertLayoutOp, tt::TransOp>(def)) {
      v = def->getOperand(0);
      continue;
    }
    return isa<tt::LoadOp, tt::DescriptorLoadOp>(def);
  }
  return true;
}

/// The dimension a thread's consecutive registers run along (the one to
/// store contiguously).
unsigned registerMajorDim(RankedTensorType type) {
  unsigned rank = type.getRank();
  llvm::Expected<layout::LinearLayout> ll = toLinearLayout(type);
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return rank - 1;
  }
  for (StringRef in : {layout::kRegister, layout::kLane})
    for (unsigned i = 0, e = ll->getInDimSizeLog2(in); i < e; ++i)
      for (unsigned d = 0; d < rank; ++d)
        if (ll->getBasis(in, i, layout::dimName(d)) != 0)
          return d;
  return rank - 1;
}

/// How a shared operand is written: the value stored (the conversion to the
/// blocked dot_op layout that ttgir-convert-from-ttir added is skipped, and
/// so is a 2-D transpose, which becomes a transposed view of the buffer, as
/// Triton's optimize-dot-operands makes it) and the buffer's type.
struct SharedOperand {
  Value stored;
  bool viaTranspose = false;
  MemDescType bufferType; // of `stored`
};

Value skipConversion(Value v) {
  if (auto cvt = v.getDefiningOp<ConvertLayoutOp>())
    return cvt.getSrc();
  return v;
}

/// The nvmma_shared layout of a 2-D buffer contiguous along `contiguous`;
/// failure when no swizzle fits (unswizzled operands are not laid out yet).
FailureOr<NVMMASharedEncodingAttr> nvmmaEncoding(RankedTensorType type, unsigned contiguous,
                                                 ArrayRef<int32_t> cga) {
  unsigned bits = bitsOf(type.getElementType());
  // Each CTA's tile is a buffer of its own.
  SmallVector<int64_t> tile = ctaShape(type.getShape(), cga);
  int64_t rowBytes = tile[contiguous] * bits / 8;
  for (unsigned s : {128u, 64u, 32u})
    if (rowBytes % s == 0 && tile[1 - contiguous] >= 8)
      return NVMMASharedEncodingAttr::get(type.getContext(), s, /*transposed=*/contiguous == 0,
                                          bits, /*fp4Padded=*/false, /*layoutRank=*/2, cga);
  return failure();
}

/// The buffer wgmma reads operand `opIdx` from (Triton's
/// getSharedMemoryMMAOperand): contiguous along the dimension the stored
/// registers run along (a descriptor load's rows are the TMA box's), or
/// K-major where wgmma cannot transpose.
FailureOr<SharedOperand> sharedOperand(Value v, unsigned opIdx, bool allowTranspose,
                                       ArrayRef<int32_t> resultCga) {
  SharedOperand result;
  result.stored = skipConversion(v);
  if (auto trans = result.stored.getDefiningOp<tt::TransOp>();
      trans && trans.getOrder().size() == 2 && trans.getOrder()[0] == 1) {
    result.stored = trans.getSrc();
    result.viaTranspose = true;
  }
  auto type = cast<RankedTensorType>(result.stored.getType());
  unsigned natural = result.stored.getDefiningOp<tt::DescriptorLoadOp>() ? 1
                                                                         : registerMajorDim(type);
  unsigned kMajor = (opIdx == 0) != result.viaTranspose ? 1 : 0; // in `stored`'s dimensions
  // The operand's split over CTAs (layout::operandCGA: the result's along
  // M for A, along N for B, never along K), in `stored`'s dimensions.
  SmallVector<int32_t> cga;
  for (size_t i = 0; i + 2 <= resultCga.size(); i += 2) {
    int32_t m = opIdx == 0 ? resultCga[i] : 0, n = opIdx == 1 ? resultCga[i + 1] : 0;
    // A is [M, K], B [K, N]; a transposed operand is stored the other way.
    SmallVector<int32_t> basis = opIdx == 0 ? SmallVector<int32_t>{m, 0}
                                            : SmallVector<int32_t>{0, n};
    if (result.viaTranspose)
      std::swap(basis[0], basis[1]);
    cga.append(basis);
  }
  FailureOr<NVMMASharedEncodingAttr> encoding =
      nvmmaEncoding(type, allowTranspose ? natural : kMajor, cga);
  if (failed(encoding))
    return failure();
  result.bufferType = MemDescType::get(type.getShape(), type.getElementType(), *encoding,
                                       SharedMemorySpaceAttr::get(v.getContext()));
  return result;
}

/// The transposed view of `buffer` (rank 2).
Value transposedView(OpBuilder &b, Location loc, Value buffer) {
  SmallVector<int32_t> order{1, 0};
  return MemDescTransOp::create(b, loc, transposedType(cast<MemDescType>(buffer.getType()), order),
                                buffer, order);
}

Value allocShared(OpBuilder &b, const SharedOperand &operand) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(operand.stored);
  Location loc = operand.stored.getLoc();
  Value buffer = LocalAllocOp::create(b, loc, operand.bufferType, operand.stored, IntegerAttr());
  return operand.viaTranspose ? transposedView(b, loc, buffer) : buffer;
}

Value convertTo(OpBuilder &b, Value v, Attribute encoding) {
  auto type = cast<RankedTensorType>(v.getType());
  return ConvertLayoutOp::create(b, v.getLoc(), type.cloneWithEncoding(encoding), v);
}

LogicalResult accelerateV3(tt::DotOp dot, unsigned numWarps) {
  OpBuilder b(dot);
  MLIRContext *ctx = dot.getContext();
  SmallVector<unsigned> instr = mmaV3InstrShape(dot, numWarps);
  SmallVector<int32_t> cga = resultCGA(dot);
  auto mma = NvidiaMmaEncodingAttr::get(ctx, 3, 0, mmaV3WarpsPerCTA(dot, numWarps), cga,
                                        instr);
  Type elem = dot.getA().getType().getElementType();
  bool allowTranspose = elem.isF16() || elem.isBF16(); // wgmma transposes 16-bit types only
  bool aShared = comesFromLoadOrArgument(dot.getA());
  FailureOr<SharedOperand> bShared = sharedOperand(dot.getB(), 1, allowTranspose, cga);
  FailureOr<SharedOperand> aSharedOp =
      aShared ? sharedOperand(dot.getA(), 0, allowTranspose, cga) : FailureOr<SharedOperand>();
  if (failed(bShared) || (aShared && failed(aSharedOp)))
    return failure();
  Value bOp = allocShared(b, *bShared);
  Value a = aShared ? allocShared(b, *aSharedOp)
                    : convertTo(b, dot.getA(),
                                DotOperandEncodingAttr::get(ctx, 0, mma, mmaKWidth(elem)));
  Value acc = convertTo(b, dot.getC(), mma);
  auto wgmma = ttng::WarpGroupDotOp::create(
      b, dot.getLoc(), acc.getType(), a, bOp, acc, /*useC=*/Value(),
      dot.getInputPrecision(), dot.getMaxNumImpreciseAcc(), /*isAsync=*/false);
  dot.replaceAllUsesWith(convertTo(b, wgmma.getD(), dot.getC().getType().getEncoding()));
  dot.erase();
  return success();
}

void accelerateV2(tt::DotOp dot, unsigned numWarps) {
  OpBuilder b(dot);
  MLIRContext *ctx = dot.getContext();
  unsigned rank = dot.getC().getType().getRank();
  SmallVector<unsigned> instr(rank - 2, 1);
  instr.append({16, 8});
  auto mma = NvidiaMmaEncodingAttr::get(ctx, 2, 0, mmaV2WarpsPerCTA(dot, numWarps),
                                        resultCGA(dot), instr);
  unsigned kWidth = mmaKWidth(dot.getA().getType().getElementType());
  Value a = convertTo(b, dot.getA(), DotOperandEncodingAttr::get(ctx, 0, mma, kWidth));
  Value bOp = convertTo(b, dot.getB(), DotOperandEncodingAttr::get(ctx, 1, mma, kWidth));
  Value acc = convertTo(b, dot.getC(), mma);
  auto newDot = tt::DotOp::create(b, dot.getLoc(), acc.getType(), a, bOp, acc,
                                  dot.getInputPrecision(), dot.getMaxNumImpreciseAcc());
  dot.replaceAllUsesWith(convertTo(b, newDot.getD(), dot.getC().getType().getEncoding()));
  dot.erase();
}

struct AccelerateMatmulPass : nvidia::impl::AccelerateMatmulBase<AccelerateMatmulPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<std::optional<Target>> target = moduleTarget(module, "ttgir-accelerate-matmul");
    if (failed(target))
      return signalPassFailure();
    if (!*target)
      return;
    int capability = (*target)->capability();
    if (capability < 80)
      return; // pre-Ampere MMA is not chosen yet
    SmallVector<tt::DotOp> dots;
    module.walk([&](tt::DotOp dot) {
      if (!isa_and_nonnull<NvidiaMmaEncodingAttr>(dot.getC().getType().getEncoding()))
        dots.push_back(dot);
    });
    for (tt::DotOp dot : dots) {
      std::optional<unsigned> numWarps = lookupNumWarps(dot);
      if (!numWarps)
        continue;
      // Hopper's wgmma; Blackwell's tcgen05 is not there yet, so sm_100+
      // uses mma.sync as Triton does where it cannot use tcgen05.
      if (capability / 10 == 9 && supportsMma(dot, 3, capability, *numWarps) &&
          succeeded(accelerateV3(dot, *numWarps)))
        continue;
      if (supportsMma(dot, 2, capability, *numWarps))
        accelerateV2(dot, *numWarps);
    }
    // The dots left to the FMA lowering compute in their result's float
    // type, as Triton's: narrower float operands (fp8, f16, bf16) are
    // converted to it first.
    module.walk([](tt::DotOp dot) {
      if (isa_and_nonnull<NvidiaMmaEncodingAttr>(dot.getC().getType().getEncoding()))
        return;
      auto c = dyn_cast<FloatType>(dot.getC().getType().getElementType());
      if (!c)
        return;
      OpBuilder b(dot);
      for (unsigned i = 0; i < 2; ++i) {
        Value v = dot->getOperand(i);
        auto type = cast<RankedTensorType>(v.getType());
        auto e = dyn_cast<FloatType>(type.getElementType());
        if (!e || e == c || e.getWidth() >= c.getWidth())
          continue;
        Value wide = isFp8(e) ? Value(tt::FpToFpOp::create(b, dot.getLoc(), type.clone(c), v,
                                                          /*rounding=*/nullptr))
                              : Value(arith::ExtFOp::create(b, dot.getLoc(), type.clone(c), v));
        dot->setOperand(i, wide);
      }
    });
  }
};

} // namespace

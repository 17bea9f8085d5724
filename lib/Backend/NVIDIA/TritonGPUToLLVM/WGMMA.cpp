//===- WGMMA.cpp - ttng.warp_group_dot to wgmma.mma_async -----------------===//
//
// Each warp group issues, for every 64 x instrN tile of its accumulator and
// every instrK step, one `wgmma.mma_async` whose shared operands are given
// by matrix descriptors. Everything is asked of the layouts: which register
// holds which accumulator element (the #mma layout), where an operand
// element lies in shared memory (the inverse of its shared layout: an
// nvmma_shared one, or any other, such as Gluon's shared_linear), and which
// descriptor, swizzled or not, describes that placement (checked, for every
// element an instruction reads, against the hardware's address rule, so
// that a layout wgmma cannot read is an error, not wrong results).
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "kiln/Backend/NVIDIA/TargetInfo.h"
#include "kiln/Conversion/TritonGPUToLLVM/SharedAccess.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Layout/Queries.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

#include <algorithm>
#include <map>

using namespace mlir;
namespace layout = kiln::layout;
using kiln::layout::LinearLayout;

namespace kiln::nvidia {
using namespace kiln::lowering;
namespace {

constexpr int64_t kInstrM = 64; // rows of one warp group's wgmma

/// Where the elements of one operand lie: offset (in elements, from the
/// buffer's start) of each (row, col) of its 2-D shape.
struct OperandPlacement {
  LinearLayout coordsToOffset; // dim0, dim1 -> offset
  int64_t offsetOf(int32_t row, int32_t col) const {
    return component(coordsToOffset.apply({{layout::dimName(0), row}, {layout::dimName(1), col}}),
                     layout::kOffset);
  }
};

/// The descriptor fields of one shared operand, valid for every
/// instruction of the product (only the start address varies).
struct Descriptor {
  bool mnMajor = false;    // contiguous along M (A) or N (B)
  int64_t swizzle = 0;     // bytes: 32, 64 or 128; 0 for none (interleaved)
  int64_t lbo = 0, sbo = 0; // bytes
  uint64_t highBits() const {
    uint64_t mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : swizzle == 32 ? 3 : 0;
    return (uint64_t((lbo >> 4) & 0x3FFF) << 16) | (uint64_t((sbo >> 4) & 0x3FFF) << 32) |
           (mode << 62);
  }
};

/// The address the hardware reads for element (mn, k) of an instruction's
/// operand tile starting at byte `start` (PTX ISA, "shared memory matrix
/// layout": canonical layouts of 8 x 16-byte core matrices or of swizzle
/// atoms, then the swizzle XOR of address bits [7, 7+b) into [4, 4+b)).
int64_t hardwareAddress(const Descriptor &d, int64_t start, int64_t mn, int64_t k,
                        int64_t bytes) {
  if (d.swizzle == 0) {
    int64_t t = 16 / bytes; // elements in one 16-byte row of a core matrix
    if (d.mnMajor)
      return start + (mn / t) * d.sbo + (mn % t) * bytes + (k / 8) * d.lbo + (k % 8) * 16;
    return start + (mn / 8) * d.sbo + (mn % 8) * 16 + (k / t) * d.lbo + (k % t) * bytes;
  }
  int64_t a;
  if (d.mnMajor) {
    int64_t atom = d.swizzle / bytes; // elements of MN in one swizzled row
    a = (mn / atom) * d.lbo + (mn % atom) * bytes + (k / 8) * d.sbo + (k % 8) * d.swizzle;
  } else {
    a = (mn / 8) * d.sbo + (mn % 8) * d.swizzle + k * bytes;
  }
  a += start;
  int64_t bits = llvm::Log2_64(d.swizzle / 16);
  return a ^ (((a >> 7) & ((int64_t(1) << bits) - 1)) << 4);
}

struct Operand {
  Value base;  // !llvm.ptr<3>
  OperandPlacement placement;
  Descriptor desc; // the first of `candidates` that reads every tile
  SmallVector<Descriptor> candidates;
  bool isB;
  int64_t bytes;
  /// Element offset of (mn, k) in the operand's own orientation.
  int64_t offset(int64_t mn, int64_t k) const {
    return isB ? placement.offsetOf(int32_t(k), int32_t(mn))
               : placement.offsetOf(int32_t(mn), int32_t(k));
  }
};

/// The descriptor of each major-ness and swizzle mode that the layout may
/// match, its strides read off the layout (the canonical layouts' strides
/// between core matrices or atoms). `swizzleBound`: the largest swizzle the
/// buffer's alignment allows (the hardware swizzles absolute addresses).
SmallVector<Descriptor> candidateDescriptors(const Operand &o, int64_t mnSize, int64_t kSize,
                                             int64_t swizzleBound, bool mnMajorAllowed) {
  SmallVector<Descriptor> result;
  auto stride = [&](int64_t mn, int64_t k, int64_t unused) {
    return mn < mnSize && k < kSize ? o.offset(mn, k) * o.bytes : unused;
  };
  for (bool mnMajor : {false, true}) {
    if (mnMajor && !mnMajorAllowed)
      continue;
    for (int64_t swizzle : {128, 64, 32, 0}) {
      if (8 * swizzle > swizzleBound)
        continue;
      Descriptor d{mnMajor, swizzle, 0, 0};
      int64_t t = 16 / o.bytes;
      if (swizzle == 0 && mnMajor) {
        d.sbo = stride(t, 0, 128);
        d.lbo = stride(0, 8, 128);
      } else if (swizzle == 0) {
        d.sbo = stride(8, 0, 128);
        d.lbo = stride(0, t, 16);
      } else if (mnMajor) {
        d.lbo = stride(swizzle / o.bytes, 0, 16);
        d.sbo = stride(0, 8, 8 * swizzle);
      } else {
        d.lbo = 16; // not used by swizzled K-major layouts
        d.sbo = stride(8, 0, 8 * swizzle);
      }
      // The descriptor holds bits [4, 18) of each stride.
      auto encodable = [](int64_t v) { return v > 0 && v % 16 == 0 && v < (int64_t(1) << 18); };
      if (encodable(d.lbo) && encodable(d.sbo))
        result.push_back(d);
    }
  }
  return result;
}

FailureOr<Operand> planOperand(Operation *op, Value base, ttg::MemDescType type, bool isB) {
  auto fail = [&](const Twine &why) {
    return op->emitError() << "op '" << op->getName() << "' cannot be lowered to LLVM: operand "
                           << (isB ? "B" : "A") << " " << why;
  };
  auto enc = dyn_cast<ttg::LayoutEncodingInterface>(type.getEncoding());
  auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(type.getEncoding());
  if (!enc || (nvmma && nvmma.getFp4Padded()) || type.getShape().size() != 2 ||
      isa<ttg::PaddedSharedEncodingAttr>(enc))
    return fail("must be a rank-2 buffer in a shared layout without padding");
  // Each CTA of a cluster reads its own tile; a descriptor reads a view of
  // part of a buffer as a buffer of its shape.
  FailureOr<BufferLayout> placed = bufferLayoutOf(op, type);
  if (failed(placed))
    return failure();
  if (placed->place)
    return fail("is a view of part of a buffer that is not laid out as a buffer of its shape "
                "would be, which a wgmma descriptor cannot read");
  std::optional<LinearLayout> inverse = placed->layout.invert();
  if (!inverse)
    return fail("has a layout that does not hold each element once");
  Operand result{base, {std::move(*inverse)}, {}, {}, isB,
                 int64_t(type.getElementType().getIntOrFloatBitWidth() / 8)};
  SmallVector<int64_t> tile = ttg::ctaShape(type.getShape(), enc);
  int64_t mnSize = tile[isB ? 1 : 0], kSize = tile[isB ? 0 : 1];
  // Where the buffer starts: an nvmma_shared one at its swizzle pattern.
  int64_t alignment = 16;
  if (nvmma)
    alignment = std::max<int64_t>(alignment, 8 * nvmma.getSwizzlingByteWidth());
  else if (auto linear = dyn_cast<ttg::SharedLinearEncodingAttr>(type.getEncoding()))
    alignment = std::max<int64_t>(alignment, linear.getAlignment());
  // wgmma reads only 16-bit operands MN-major.
  bool mnMajorAllowed = result.bytes == 2;
  if (nvmma && (nvmma.getTransposed() != isB) && !mnMajorAllowed)
    return fail("must be K-major: wgmma reads only 16-bit operands transposed");
  result.candidates = candidateDescriptors(result, mnSize, kSize, alignment, mnMajorAllowed);
  // An nvmma_shared buffer says what it is: try that reading first.
  if (nvmma)
    std::stable_partition(result.candidates.begin(), result.candidates.end(),
                          [&](const Descriptor &d) {
                            return d.swizzle == nvmma.getSwizzlingByteWidth() &&
                                   d.mnMajor == (nvmma.getTransposed() != isB);
                          });
  return result;
}

/// Checks that the descriptor of the tile at (mn0, k0) reads exactly the
/// elements the layout put there. The tile's start is the layout's offset
/// of (mn0, k0), as the lowering computes it (XOR of the parts from
/// registers and warps, which linearity makes the same); the descriptor
/// holds it in 16-byte units.
bool descriptorReadsTile(const Operand &o, int64_t mn0, int64_t k0, int64_t mnSize,
                         int64_t kSize) {
  int64_t start = o.offset(mn0, k0) * o.bytes;
  if (start % 16 != 0)
    return false;
  for (int64_t mn = 0; mn < mnSize; ++mn)
    for (int64_t k = 0; k < kSize; ++k)
      if (hardwareAddress(o.desc, start, mn, k, o.bytes) != o.offset(mn0 + mn, k0 + k) * o.bytes)
        return false;
  return true;
}

NVVM::WGMMATypes wgmmaType(Type t) {
  if (t.isF16())
    return NVVM::WGMMATypes::f16;
  if (t.isBF16())
    return NVVM::WGMMATypes::bf16;
  if (t.isF32())
    return NVVM::WGMMATypes::tf32;
  if (t.isInteger(8))
    return NVVM::WGMMATypes::s8;
  if (isa<Float8E5M2Type>(t))
    return NVVM::WGMMATypes::e5m2;
  return NVVM::WGMMATypes::e4m3;
}

/// A 64-bit descriptor of the tile at byte offset `byteOffset` (a value).
Value descriptorAt(OpBuilder &b, Location loc, const Operand &o, Value byteOffset) {
  Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), o.base);
  addr = LLVM::AddOp::create(b, loc, addr, byteOffset);
  Value field = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, addr, i32Constant(b, loc, 4)),
      i32Constant(b, loc, 0x3FFF));
  Value wide = LLVM::ZExtOp::create(b, loc, b.getI64Type(), field);
  Value high = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                        b.getI64IntegerAttr(int64_t(o.desc.highBits())));
  return LLVM::OrOp::create(b, loc, wide, high);
}

/// The (row, col) that input `in` = `v` alone maps to in a 2-D layout.
std::pair<int64_t, int64_t> coord(const LinearLayout &l, StringRef in, int32_t v) {
  auto out = l.apply({{in, v}});
  return {component(out, layout::dimName(0)), component(out, layout::dimName(1))};
}

/// The PTX name of a wgmma operand type.
StringRef ptxType(Type t) {
  switch (wgmmaType(t)) {
  case NVVM::WGMMATypes::f16: return "f16";
  case NVVM::WGMMATypes::bf16: return "bf16";
  case NVVM::WGMMATypes::tf32: return "tf32";
  case NVVM::WGMMATypes::s8: return "s8";
  case NVVM::WGMMATypes::e5m2: return "e5m2";
  default: return "e4m3";
  }
}

/// The A fragment of every (tile row m0, K step k0) from the registers of a
/// `#ttg.dot_op` (opIdx 0, nvidia_mma v3 parent) tensor: word r of a thread
/// holds e = 32/bits consecutive K elements of row 8*(r&1), starting at K
/// 4e*(r>>1), its lanes at (lane/4, e*(lane%4)), as in the PTX ISA's A
/// fragment tables; the layout must put each element there.
FailureOr<std::map<std::pair<int64_t, int64_t>, SmallVector<Value>>>
packRegisterA(OpBuilder &b, Location loc, Operation *op, RankedTensorType type, Value a,
              const LinearLayout &acc, ArrayRef<std::pair<int64_t, int64_t>> origins,
              int64_t kTotal, int64_t instrK) {
  auto fail = [&](const Twine &why) {
    return op->emitError() << "op '" << op->getName()
                           << "' cannot be lowered to LLVM: operand A in registers " << why;
  };
  LinearLayout ll = layoutOf(type);
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  int64_t e = 32 / bits;
  const std::pair<int64_t, int64_t> lanes[] = {{0, e}, {0, 2 * e}, {1, 0}, {2, 0}, {4, 0}};
  for (int i = 0; i < 5; ++i)
    if (coord(ll, layout::kLane, 1 << i) != lanes[i])
      return fail("must be in wgmma's A fragment layout (lanes)");
  for (unsigned i = 0, n = ll.getInDimSizeLog2(layout::kWarp); i < n; ++i) {
    auto [am, ak] = coord(ll, layout::kWarp, 1 << i);
    if (ak != 0 || am != coord(acc, layout::kWarp, 1 << i).first)
      return fail("must give each warp the rows of its accumulator");
  }
  std::map<std::pair<int64_t, int64_t>, int32_t> regAt;
  for (int32_t r = 0, n = ll.getInDimSize(layout::kRegister); r < n; ++r)
    regAt[coord(ll, layout::kRegister, r)] = r;
  SmallVector<Value> regs = unpack(b, loc, a);
  Type elem = regs.front().getType();
  auto vec = VectorType::get({e}, elem);
  std::map<std::pair<int64_t, int64_t>, SmallVector<Value>> words;
  for (auto [m0, n0] : origins) {
    (void)n0;
    for (int64_t k0 = 0; k0 < kTotal; k0 += instrK) {
      if (words.count({m0, k0}))
        continue;
      SmallVector<Value> four;
      for (int64_t r = 0; r < 4; ++r) {
        Value v = LLVM::UndefOp::create(b, loc, vec);
        for (int64_t i = 0; i < e; ++i) {
          auto it = regAt.find({m0 + 8 * (r & 1), k0 + i + 4 * e * (r >> 1)});
          if (it == regAt.end())
            return fail("does not hold a whole wgmma A fragment");
          v = LLVM::InsertElementOp::create(b, loc, v, regs[it->second], i32Constant(b, loc, i));
        }
        four.push_back(LLVM::BitcastOp::create(b, loc, b.getI32Type(), v));
      }
      words[{m0, k0}] = std::move(four);
    }
  }
  return words;
}

/// The PTX name of a wgmma accumulator type.
StringRef accPtxType(Type t) { return t.isF32() ? "f32" : t.isF16() ? "f16" : "s32"; }

/// Whether `parts` are 16-bit floats that pair up into 32-bit registers.
bool isHalfPairs(ArrayRef<Value> parts) {
  return parts.size() % 2 == 0 &&
         llvm::all_of(parts, [](Value v) { return v.getType().isF16() || v.getType().isBF16(); });
}

/// Two 16-bit values in one 32-bit register, `low` in the low half.
Value packPair(OpBuilder &b, Location loc, Value low, Value high) {
  Value v = LLVM::UndefOp::create(b, loc, VectorType::get(2, low.getType()));
  v = LLVM::InsertElementOp::create(b, loc, v, low, i32Constant(b, loc, 0));
  v = LLVM::InsertElementOp::create(b, loc, v, high, i32Constant(b, loc, 1));
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), v);
}

/// wgmma as inline PTX, its accumulators tied in and out: for A in
/// registers (`aWords`; NVVM's op takes A descriptors only), for a
/// scale-d known only at run time (`useC`, an i1; NVVM's op takes a
/// constant), which then decides whether `d` is added to the product, and
/// for f16 accumulators (two to a 32-bit register, as `d` holds them).
Value inlineWgmma(OpBuilder &b, Location loc, Type tileType, Value d, ArrayRef<Value> aWords,
                  Value descA, Value descB, Value useC, int64_t n, int64_t k, Type elem,
                  Type accElem, bool aMnMajor, bool bMnMajor) {
  auto tile = cast<LLVM::LLVMStructType>(tileType);
  unsigned f = tile.getBody().size();
  unsigned aCount = aWords.empty() ? 1 : 4;
  std::string t = ptxType(elem).str();
  std::string scale = useC ? "$" + std::to_string(2 * f + aCount + 1) : "1";
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, " + scale +
                     ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k" +
                     std::to_string(k) + "." + accPtxType(accElem).str() + "." + t + "." +
                     t + " {";
  for (unsigned i = 0; i < f; ++i)
    text += (i ? ", $" : "$") + std::to_string(i);
  text += "}, ";
  if (aWords.empty()) {
    text += "$" + std::to_string(2 * f);
  } else {
    text += "{";
    for (unsigned i = 0; i < 4; ++i)
      text += (i ? ", $" : "$") + std::to_string(2 * f + i);
    text += "}";
  }
  text += ", $" + std::to_string(2 * f + aCount) + ", p";
  // Scales of A and B (floats), then transposes (16-bit floats; A's only
  // when it is read from shared memory).
  if (elem.isF16() || elem.isBF16())
    text += std::string(", 1, 1, ") + (aWords.empty() ? (aMnMajor ? "1, " : "0, ") : "") +
            (bMnMajor ? "1" : "0");
  else if (!elem.isInteger(8))
    text += ", 1, 1";
  text += ";\n}";
  std::string constraints;
  for (unsigned i = 0; i < f; ++i)
    constraints += std::string(i ? "," : "") + (accElem.isF32() ? "=f" : "=r");
  for (unsigned i = 0; i < f; ++i)
    constraints += "," + std::to_string(i);
  constraints += aWords.empty() ? ",l" : ",r,r,r,r";
  constraints += ",l";
  SmallVector<Value> operands;
  for (unsigned i = 0; i < f; ++i)
    operands.push_back(LLVM::ExtractValueOp::create(b, loc, d, int64_t(i)));
  if (aWords.empty())
    operands.push_back(descA);
  else
    llvm::append_range(operands, aWords);
  operands.push_back(descB);
  if (useC) {
    constraints += ",r";
    operands.push_back(LLVM::ZExtOp::create(b, loc, b.getI32Type(), useC));
  }
  return inlinePtx(b, loc, tileType, text, constraints, operands, /*sideEffects=*/true);
}

/// `sum` + `part` per f32 fragment of a wgmma tile; where `useC` (an i1
/// known at run time) is false, `part` alone.
Value addPartial(OpBuilder &b, Location loc, Value sum, Value part, int64_t fragments,
                 Value useC) {
  Value result = sum;
  for (int64_t i = 0; i < fragments; ++i) {
    Value s = LLVM::ExtractValueOp::create(b, loc, sum, i);
    Value p = LLVM::ExtractValueOp::create(b, loc, part, i);
    Value v = LLVM::FAddOp::create(b, loc, s, p);
    if (useC)
      v = LLVM::SelectOp::create(b, loc, useC, v, p);
    result = LLVM::InsertValueOp::create(b, loc, result, v, i);
  }
  return result;
}

struct WarpGroupDotLowering : OpConversionPattern<ttng::WarpGroupDotOp> {
  WarpGroupDotLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}

  LogicalResult matchAndRewrite(ttng::WarpGroupDotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto fail = [&](const Twine &why) {
      return op->emitError() << "op '" << op->getName() << "' cannot be lowered to LLVM: " << why;
    };
    RankedTensorType dType = op.getD().getType();
    auto mma = cast<ttg::NvidiaMmaEncodingAttr>(dType.getEncoding());
    auto aMem = dyn_cast<ttg::MemDescType>(op.getA().getType());
    auto aRegsType = dyn_cast<RankedTensorType>(op.getA().getType());
    Type elem = cast<ShapedType>(op.getA().getType()).getElementType();
    Type accElem = dType.getElementType();
    bool halfAcc = accElem.isF16();
    bool fp8 = isa<Float8E4M3FNType, Float8E5M2Type>(elem);
    if (!accElem.isF32() && !accElem.isInteger(32) && !(halfAcc && (elem.isF16() || fp8)))
      return fail("accumulators are f32, i32, or f16 for f16 and fp8 operands (got " +
                  Twine(accElem.getIntOrFloatBitWidth()) + "-bit)");
    int64_t kTotal = cast<ShapedType>(op.getA().getType()).getShape()[1];
    // fp8 products add up in wgmma with fewer mantissa bits than f32. With
    // maxNumImpreciseAcc at most K (Triton's rule), each run of that many K
    // elements goes to a partial sum started at zero, which is added to the
    // accumulator in f32 once its wgmmas have retired: one add a register a
    // run, as in Triton.
    int64_t imprecise = op.getMaxNumImpreciseAcc();
    bool partial = fp8 && accElem.isF32() && imprecise > 0 && imprecise <= kTotal;
    ArrayRef<unsigned> instr = mma.getInstrShape();
    int64_t instrN = instr[1], instrK = instr[2];
    int64_t expectedK = 256 / elem.getIntOrFloatBitWidth();
    if (instrK != expectedK)
      return fail("instrShape K must be " + Twine(expectedK) + " for these operands");

    FailureOr<Operand> a = aMem ? planOperand(op, adaptor.getA(), aMem, /*isB=*/false)
                                : FailureOr<Operand>(Operand{});
    FailureOr<Operand> bOp = planOperand(op, adaptor.getB(), op.getB().getType(), /*isB=*/true);
    if (failed(a) || failed(bOp))
      return failure();

    // The accumulator: which register holds (m, n) on lane 0 of warp 0,
    // and that lanes and the warps of a group sit where wgmma puts them.
    LinearLayout acc = layoutOf(dType);
    int32_t numRegs = acc.getInDimSize(layout::kRegister);
    auto coordOf = [&](StringRef in, int32_t v) { return coord(acc, in, v); };
    const std::pair<int64_t, int64_t> laneImages[] = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
    for (int i = 0; i < 5; ++i)
      if (coordOf(layout::kLane, 1 << i) != laneImages[i])
        return fail("the accumulator layout is not wgmma's fragment layout");
    if (coordOf(layout::kWarp, 1) != std::pair<int64_t, int64_t>{16, 0} ||
        coordOf(layout::kWarp, 2) != std::pair<int64_t, int64_t>{32, 0})
      return fail("the warps of a warp group must own consecutive 16-row slices");
    std::map<std::pair<int64_t, int64_t>, int32_t> regAt;
    for (int32_t r = 0; r < numRegs; ++r)
      regAt[coordOf(layout::kRegister, r)] = r;

    // The origins of the instruction tiles, relative to the warp group's.
    SmallVector<std::pair<int64_t, int64_t>> origins;
    for (auto &[mn, reg] : regAt)
      if (mn.first % 16 == 0 && mn.second % instrN == 0)
        origins.push_back(mn);
    int64_t fragments = instrN / 2;
    SmallVector<SmallVector<int32_t>> regsOf;
    for (auto [m0, n0] : origins) {
      SmallVector<int32_t> regs;
      for (int64_t i = 0; i < fragments; ++i) {
        auto it = regAt.find({m0 + 8 * ((i >> 1) & 1), n0 + (i & 1) + 8 * (i >> 2)});
        if (it == regAt.end())
          return fail("the accumulator layout does not hold whole wgmma tiles");
        regs.push_back(it->second);
      }
      regsOf.push_back(std::move(regs));
    }
    if (int64_t(origins.size()) * fragments != numRegs)
      return fail("the accumulator layout does not hold whole wgmma tiles");

    // Each warp group's origin (warp bits above the first two). Of each
    // operand's candidate descriptors, the first that reads every warp
    // group's tiles at every K step.
    unsigned numWarps = acc.getInDimSize(layout::kWarp);
    auto readsEveryTile = [&](const Operand &o) {
      for (unsigned wg = 0; wg < numWarps; wg += 4) {
        auto [wm, wn] = coordOf(layout::kWarp, int32_t(wg));
        for (auto [m0, n0] : origins)
          for (int64_t k0 = 0; k0 < kTotal; k0 += instrK)
            if (o.isB ? !descriptorReadsTile(o, wn ^ n0, k0, instrN, instrK)
                      : !descriptorReadsTile(o, wm ^ m0, k0, kInstrM, instrK))
              return false;
      }
      return true;
    };
    auto chooseDescriptor = [&](Operand &o) -> LogicalResult {
      for (const Descriptor &d : o.candidates) {
        o.desc = d;
        if (readsEveryTile(o))
          return success();
      }
      return fail(Twine("the shared layout of operand ") + (o.isB ? "B" : "A") +
                  " is not one a wgmma descriptor can read");
    };
    if ((aMem && failed(chooseDescriptor(*a))) || failed(chooseDescriptor(*bOp)))
      return failure();

    // The warp group's element offsets into A and B: XOR of the images of
    // the warp-id bits above the first two (layouts are linear over GF(2)).
    auto [lane, warp] = laneAndWarp(rewriter, loc, ctx);
    (void)lane;
    Value aWarpOff = i32Constant(rewriter, loc, 0), bWarpOff = i32Constant(rewriter, loc, 0);
    int64_t aWarpBits = 0, bWarpBits = 0; // the offset bits the warp parts may set
    for (unsigned bit = 2; (1u << bit) < numWarps; ++bit) {
      auto [wm, wn] = coordOf(layout::kWarp, int32_t(1) << bit);
      Value set = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::ne,
          LLVM::AndOp::create(rewriter, loc, warp, i32Constant(rewriter, loc, 1 << bit)),
          i32Constant(rewriter, loc, 0));
      auto term = [&](int64_t bytes) -> Value {
        return LLVM::SelectOp::create(rewriter, loc, set, i32Constant(rewriter, loc, bytes),
                                      i32Constant(rewriter, loc, 0));
      };
      if (aMem) {
        aWarpOff =
            LLVM::XOrOp::create(rewriter, loc, aWarpOff, term(a->offset(wm, 0) * a->bytes));
        aWarpBits |= a->offset(wm, 0) * a->bytes;
      }
      bWarpBits |= bOp->offset(wn, 0) * bOp->bytes;
      bWarpOff =
          LLVM::XOrOp::create(rewriter, loc, bWarpOff, term(bOp->offset(wn, 0) * bOp->bytes));
    }

    SmallVector<Value> regs = unpack(rewriter, loc, adaptor.getC());
    Type accType = regs.front().getType();
    // d = a * b + (useC ? c : 0): a flag known only at run time (Gluon's
    // use_acc, a fused loop's first step of a tile) is the first K step's
    // scale-d predicate. Reading the accumulator registers instead (a
    // select) would wait for a wgmma still in flight.
    Value useC = adaptor.getUseC();
    if (useC && matchPattern(op.getUseC(), m_One()))
      useC = Value();
    // f16 accumulators sit two to a register, the even fragment (column n)
    // in the low half, the odd one (n + 1) in the high half.
    Type i32 = rewriter.getI32Type();
    auto tileType = LLVM::LLVMStructType::getLiteral(
        getContext(), halfAcc ? SmallVector<Type>(fragments / 2, i32)
                              : SmallVector<Type>(fragments, accType));
    auto shape = NVVM::MMAShapeAttr::get(getContext(), int(kInstrM), int(instrN), int(instrK));
    auto typeIn = NVVM::WGMMATypesAttr::get(getContext(), wgmmaType(elem));
    auto typeD = NVVM::WGMMATypesAttr::get(
        getContext(), accElem.isF32()   ? NVVM::WGMMATypes::f32
                      : accElem.isF16() ? NVVM::WGMMATypes::f16
                                        : NVVM::WGMMATypes::s32);
    auto scaleD = NVVM::WGMMAScaleOutAttr::get(getContext(), NVVM::WGMMAScaleOut::one);
    auto scaleIn = NVVM::WGMMAScaleInAttr::get(getContext(), NVVM::WGMMAScaleIn::one);
    auto layoutA = NVVM::MMALayoutAttr::get(
        getContext(), aMem && a->desc.mnMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row);
    auto layoutB = NVVM::MMALayoutAttr::get(
        getContext(), bOp->desc.mnMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col);
    NVVM::MMAIntOverflowAttr overflow;
    if (accElem.isInteger(32))
      overflow = NVVM::MMAIntOverflowAttr::get(getContext(), NVVM::MMAIntOverflow::wrapped);

    // A in registers: the 32-bit words of each (tile row, K step), packed
    // once, in the order of wgmma's A fragment.
    std::map<std::pair<int64_t, int64_t>, SmallVector<Value>> aWords;
    if (aRegsType) {
      FailureOr<std::map<std::pair<int64_t, int64_t>, SmallVector<Value>>> words =
          packRegisterA(rewriter, loc, op, aRegsType, adaptor.getA(), acc, origins, kTotal, instrK);
      if (failed(words))
        return failure();
      aWords = std::move(*words);
    }

    // The descriptor of the tile `bytes` into an operand: where those bytes
    // and the warp part's cannot overlap, XOR is addition, and the tile's
    // descriptor is the operand's plus bytes / 16 (as Triton advances them);
    // otherwise it is built from the XOR.
    Value aDesc, bDesc;
    auto descriptor = [&](const Operand &o, Value warpOff, int64_t warpBits, Value &base,
                          int64_t bytes) -> Value {
      if (bytes & warpBits)
        return descriptorAt(rewriter, loc, o,
                            LLVM::XOrOp::create(rewriter, loc, warpOff,
                                                i32Constant(rewriter, loc, bytes)));
      if (!base)
        base = descriptorAt(rewriter, loc, o, warpOff);
      if (bytes == 0)
        return base;
      return LLVM::AddOp::create(
          rewriter, loc, base,
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                   rewriter.getI64IntegerAttr(bytes >> 4)));
    };

    // Every tile's accumulator registers are in place before the fence
    // (packing f16 pairs writes registers the wgmmas then read).
    SmallVector<Value> tiles;
    for (ArrayRef<int32_t> tileRegs : regsOf) {
      Value d = LLVM::UndefOp::create(rewriter, loc, tileType);
      if (halfAcc) {
        for (int64_t i = 0; i < fragments; i += 2)
          d = LLVM::InsertValueOp::create(
              rewriter, loc, d, packPair(rewriter, loc, regs[tileRegs[i]], regs[tileRegs[i + 1]]),
              i / 2);
      } else {
        for (auto [i, r] : llvm::enumerate(tileRegs))
          d = LLVM::InsertValueOp::create(rewriter, loc, d, regs[r], int64_t(i));
      }
      tiles.push_back(d);
    }
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    int64_t runSteps = partial ? llvm::divideCeil(imprecise, instrK) : 0;
    Value zeroStart = partial ? LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                                         rewriter.getBoolAttr(false))
                              : Value();
    for (auto [tile, origin] : llvm::enumerate(origins)) {
      auto [m0, n0] = origin;
      Value d = tiles[tile];
      Value sum = d; // with partial sums: the accumulator they are added to
      for (int64_t k0 = 0; k0 < kTotal; k0 += instrK) {
        Value descB =
            descriptor(*bOp, bWarpOff, bWarpBits, bDesc, bOp->offset(n0, k0) * bOp->bytes);
        Value scale = k0 == 0 ? useC : Value();
        int64_t step = k0 / instrK;
        if (partial && step % runSteps == 0) {
          // A run's first product overwrites the partial sum; its registers
          // were last read by the adds, so the fence orders them.
          if (step)
            NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
          scale = zeroStart;
        }
        if (aRegsType) {
          d = inlineWgmma(rewriter, loc, tileType, d, aWords[{m0, k0}], Value(), descB, scale,
                          instrN, instrK, elem, accElem, false, bOp->desc.mnMajor);
        } else {
          Value descA =
              descriptor(*a, aWarpOff, aWarpBits, aDesc, a->offset(m0, k0) * a->bytes);
          if (scale || halfAcc)
            d = inlineWgmma(rewriter, loc, tileType, d, {}, descA, descB, scale, instrN, instrK,
                            elem, accElem, a->desc.mnMajor, bOp->desc.mnMajor);
          else
            d = NVVM::WgmmaMmaAsyncOp::create(rewriter, loc, tileType, d, descA, descB, shape,
                                              typeIn, typeIn, typeD, scaleD, scaleIn, scaleIn,
                                              layoutA, layoutB, overflow);
        }
        // The run's end: its partial sum, once retired, into the accumulator
        // (the first run's into C only where useC says so).
        if (partial && ((step + 1) % runSteps == 0 || k0 + instrK >= kTotal)) {
          NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
          NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
          sum = addPartial(rewriter, loc, sum, d, fragments, step < runSteps ? useC : Value());
        }
      }
      if (partial)
        d = sum;
      if (halfAcc) {
        auto pair = VectorType::get(2, accType);
        for (int64_t i = 0; i < fragments; i += 2) {
          Value v = LLVM::BitcastOp::create(
              rewriter, loc, pair, LLVM::ExtractValueOp::create(rewriter, loc, d, i / 2));
          for (int64_t h = 0; h < 2; ++h)
            regs[regsOf[tile][i + h]] = LLVM::ExtractElementOp::create(
                rewriter, loc, v, i32Constant(rewriter, loc, int32_t(h)));
        }
        continue;
      }
      for (auto [i, r] : llvm::enumerate(regsOf[tile]))
        regs[r] = LLVM::ExtractValueOp::create(rewriter, loc, d, int64_t(i));
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    if (!op.getIsAsync())
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
    rewriter.replaceOp(op, pack(rewriter, loc, adaptor.getC().getType(), regs));
    return success();
  }

  const Context &ctx;
};

/// The wait names the accumulator registers it waits for as tied inline-asm
/// operands (as Triton does): no instruction that reads or writes them can
/// move above the wait, and ptxas sees where the in-flight wgmmas end.
/// 16-bit values go in pairs, one 32-bit register each, as wgmma writes f16
/// accumulators (LLVM folds the packing into the wgmma's own registers).
struct WarpGroupDotWaitLowering : OpConversionPattern<ttng::WarpGroupDotWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttng::WarpGroupDotWaitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::string text = "wgmma.wait_group.sync.aligned " + std::to_string(op.getPendings()) + ";";
    SmallVector<Value> regs;
    SmallVector<std::pair<unsigned, unsigned>> spans; // per input: first register, count
    for (Value input : adaptor.getInputs()) {
      if (!isa<LLVM::LLVMStructType>(input.getType())) {
        spans.push_back({0, 0});
        continue;
      }
      SmallVector<Value> parts = unpack(rewriter, loc, input);
      spans.push_back({unsigned(regs.size()), unsigned(parts.size())});
      if (isHalfPairs(parts)) {
        for (unsigned i = 0; i < parts.size(); i += 2)
          regs.push_back(packPair(rewriter, loc, parts[i], parts[i + 1]));
        continue;
      }
      llvm::append_range(regs, parts);
    }
    if (regs.empty()) {
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, int64_t(op.getPendings()));
      rewriter.replaceOp(op, adaptor.getInputs());
      return success();
    }
    std::string constraints;
    SmallVector<Type> types;
    for (Value r : regs) {
      Type t = r.getType();
      constraints += std::string(constraints.empty() ? "" : ",") +
                     (t.isF32() ? "=f" : t.getIntOrFloatBitWidth() == 64 ? "=l" : "=r");
      types.push_back(t);
    }
    for (unsigned i = 0; i < regs.size(); ++i)
      constraints += "," + std::to_string(i);
    auto resultType = LLVM::LLVMStructType::getLiteral(getContext(), types);
    Value wait = inlinePtx(rewriter, loc, resultType, text, constraints, regs,
                           /*sideEffects=*/true);
    SmallVector<Value> results;
    for (auto [input, span] : llvm::zip(adaptor.getInputs(), spans)) {
      if (span.second == 0) {
        results.push_back(input);
        continue;
      }
      SmallVector<Value> parts = unpack(rewriter, loc, input);
      bool halves = isHalfPairs(parts);
      for (unsigned i = 0; i < span.second; ++i) {
        Value word = LLVM::ExtractValueOp::create(rewriter, loc, wait,
                                                  int64_t(span.first + (halves ? i / 2 : i)));
        if (halves)
          word = LLVM::ExtractElementOp::create(
              rewriter, loc,
              LLVM::BitcastOp::create(rewriter, loc, VectorType::get(2, parts[i].getType()), word),
              i32Constant(rewriter, loc, int32_t(i % 2)));
        parts[i] = word;
      }
      results.push_back(pack(rewriter, loc, input.getType(), parts));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// A constant in a wgmma accumulator layout (the zeros a K loop starts from)
/// is materialised by one opaque `mov` per register. As LLVM constants they
/// would be rematerialised on every edge into the loop's exit, and ptxas
/// serialises wgmma wherever another instruction may define an accumulator
/// register while a wgmma is in flight; defined once, before the loop, the
/// registers are coalesced and no such instruction remains.
struct MmaAccumulatorConstantLowering : OpConversionPattern<arith::ConstantOp> {
  MmaAccumulatorConstantLowering(lowering::TypeConverter &converter)
      : OpConversionPattern(converter, &converter.getContext(), /*benefit=*/2) {}
  LogicalResult matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    auto mma = type ? dyn_cast<ttg::NvidiaMmaEncodingAttr>(type.getEncoding()) : nullptr;
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    Type elem = type ? type.getElementType() : Type();
    if (!mma || mma.getVersionMajor() != 3 || !splat ||
        !(elem.isF32() || elem.isF16() || elem.isInteger(32)))
      return failure();
    APInt bits = isa<FloatType>(elem) ? splat.getSplatValue<APFloat>().bitcastToAPInt()
                                      : splat.getSplatValue<APInt>();
    int32_t regs = layoutOf(type).getInDimSize(layout::kRegister);
    std::string text, constraints;
    StringRef mov = elem.isF16() ? "mov.b16 $" : "mov.b32 $";
    StringRef out = elem.isF32() ? "=f" : elem.isF16() ? "=h" : "=r";
    for (int32_t i = 0; i < regs; ++i) {
      text += mov.str() + std::to_string(i) + ", " + std::to_string(bits.getZExtValue()) + ";\n";
      constraints += std::string(i ? "," : "") + out.str();
    }
    Location loc = op.getLoc();
    auto resultType = LLVM::LLVMStructType::getLiteral(getContext(),
                                                       SmallVector<Type>(regs, elem));
    Value movs = inlinePtx(rewriter, loc, resultType, text, constraints, ValueRange(),
                           /*sideEffects=*/true);
    SmallVector<Value> values;
    for (int32_t i = 0; i < regs; ++i)
      values.push_back(LLVM::ExtractValueOp::create(rewriter, loc, movs, int64_t(i)));
    rewriter.replaceOp(op, pack(rewriter, loc, getTypeConverter()->convertType(type), values));
    return success();
  }
};

} // namespace

void populateWGMMAPatterns(lowering::TypeConverter &converter, const Context &ctx,
                           RewritePatternSet &patterns) {
  patterns.add<WarpGroupDotLowering>(converter, ctx);
  patterns.add<WarpGroupDotWaitLowering>(converter, &converter.getContext());
  patterns.add<MmaAccumulatorConstantLowering>(converter);
}

} // namespace kiln::nvidia

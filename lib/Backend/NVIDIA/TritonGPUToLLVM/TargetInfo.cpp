//===- TargetInfo.cpp - NVIDIA's side of the LLVM lowering ----------------===//
//
// With the other files of this folder, the only code of the lowering that
// includes the NVVM dialect.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/NVIDIA/TargetInfo.h"

#include "PTXHelpers.h"
#include "Patterns.h"

#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"
#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kiln::nvidia::detail;

namespace kiln {

Value lowering::inlinePtx(OpBuilder &b, Location loc, Type result, StringRef text,
                          StringRef constraints, ValueRange args, bool sideEffects) {
  auto op = LLVM::InlineAsmOp::create(
      b, loc, result ? TypeRange(result) : TypeRange(), args, text, constraints, sideEffects,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      /*asm_dialect=*/LLVM::AsmDialectAttr(), ArrayAttr()); // AT&T, the default
  return result ? op.getResult(0) : Value();
}

namespace nvidia {
namespace {


/// The fp8 value in bits `shift`..`shift + 7` of i16 `packed` as f16, with
/// integer ops (cvt from fp8 is sm_89's): e5m2 is the high byte of f16; an
/// e4m3 value's bits moved into an f16 (exponent and mantissa shifted by
/// 7) is the value times 2^-8, denormals included, so one exact multiply
/// by 256 rescales it; e4m3's NaN (all ones) is mapped explicitly.
Value fp8ToF16(OpBuilder &b, Location loc, Value packed, unsigned shift, Type fp8) {
  Type i16 = b.getI16Type();
  auto c16 = [&](int64_t v) { return LLVM::ConstantOp::create(b, loc, i16, v); };
  Value byte = packed;
  if (shift)
    byte = LLVM::LShrOp::create(b, loc, byte, c16(shift));
  byte = LLVM::AndOp::create(b, loc, byte, c16(0xFF));
  if (isa<Float8E5M2Type>(fp8))
    return LLVM::BitcastOp::create(b, loc, b.getF16Type(),
                                   LLVM::ShlOp::create(b, loc, byte, c16(8)));
  Value magnitude = LLVM::AndOp::create(b, loc, byte, c16(0x7F));
  Value sign = LLVM::ShlOp::create(b, loc, LLVM::AndOp::create(b, loc, byte, c16(0x80)), c16(8));
  Value bits = LLVM::OrOp::create(b, loc, LLVM::ShlOp::create(b, loc, magnitude, c16(7)), sign);
  Value scaled = LLVM::FMulOp::create(
      b, loc, LLVM::BitcastOp::create(b, loc, b.getF16Type(), bits),
      LLVM::ConstantOp::create(b, loc, b.getF16Type(), b.getF16FloatAttr(256.0)));
  Value isNan = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, magnitude, c16(0x7F));
  Value nan = LLVM::BitcastOp::create(b, loc, b.getF16Type(), c16(0x7E00));
  return LLVM::SelectOp::create(b, loc, isNan, nan, scaled);
}

class NVVMTargetInfo final : public NVIDIATargetInfo {
public:
  explicit NVVMTargetInfo(unsigned cc) : cc(cc) {}

  unsigned computeCapability() const override { return cc; }

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<NVVM::NVVMDialect>();
  }

  Value threadId(OpBuilder &b, Location loc) const override {
    return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  }

  // A program of several CTAs is a cluster: its index is the cluster's.
  Value programId(OpBuilder &b, Location loc, unsigned axis, unsigned numCTAs) const override {
    Type i32 = b.getI32Type();
    if (numCTAs > 1) {
      switch (axis) {
      case 0:
        return NVVM::ClusterIdXOp::create(b, loc, i32);
      case 1:
        return NVVM::ClusterIdYOp::create(b, loc, i32);
      default:
        return NVVM::ClusterIdZOp::create(b, loc, i32);
      }
    }
    switch (axis) {
    case 0:
      return NVVM::BlockIdXOp::create(b, loc, i32);
    case 1:
      return NVVM::BlockIdYOp::create(b, loc, i32);
    default:
      return NVVM::BlockIdZOp::create(b, loc, i32);
    }
  }

  Value numPrograms(OpBuilder &b, Location loc, unsigned axis, unsigned numCTAs) const override {
    Type i32 = b.getI32Type();
    if (numCTAs > 1) {
      switch (axis) {
      case 0:
        return NVVM::ClusterDimXOp::create(b, loc, i32);
      case 1:
        return NVVM::ClusterDimYOp::create(b, loc, i32);
      default:
        return NVVM::ClusterDimZOp::create(b, loc, i32);
      }
    }
    switch (axis) {
    case 0:
      return NVVM::GridDimXOp::create(b, loc, i32);
    case 1:
      return NVVM::GridDimYOp::create(b, loc, i32);
    default:
      return NVVM::GridDimZOp::create(b, loc, i32);
    }
  }

  Value blockId(OpBuilder &b, Location loc) const override {
    return NVVM::ClusterId::create(b, loc, b.getI32Type());
  }

  // barrier.cluster.arrive releases and .wait acquires by default.
  void clusterBarrier(OpBuilder &b, Location loc) const override {
    NVVM::ClusterArriveOp::create(b, loc, UnitAttr());
    NVVM::ClusterWaitOp::create(b, loc, UnitAttr());
  }

  // mapa: the address space 7 (shared::cluster) pointer of that CTA's copy.
  Value clusterSharedAddress(OpBuilder &b, Location loc, Value sharedPtr,
                             Value ctaRank) const override {
    return NVVM::MapaOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext(), 7), sharedPtr,
                                ctaRank);
  }

  // Clusters exist from sm_90; 8 CTAs is the portable cluster size, 16 the
  // largest, which launchers opt into (Triton's and kiln's do).
  std::string clusterUnsupported(unsigned numCTAs) const override {
    if (numCTAs == 1)
      return "";
    if (cc < 90)
      return "thread-block clusters (num_ctas > 1) need sm_90 or newer; the target is sm_" +
             std::to_string(cc);
    if (numCTAs > 16 || !llvm::isPowerOf2_32(numCTAs))
      return "num_ctas must be 1, 2, 4, 8 or 16";
    return "";
  }

  // As Triton 3.6: the block size is required (reqntid), not only bounded,
  // and a register cap only when the module asks for one.
  void markKernel(Operation *func, unsigned numThreads, std::optional<unsigned> maxRegisters,
                  unsigned numCTAs) const override {
    Builder b(func->getContext());
    func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
    func->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                  b.getDenseI32ArrayAttr({int32_t(numThreads)}));
    if (maxRegisters)
      func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    b.getI32IntegerAttr(int32_t(*maxRegisters)));
    // .explicitcluster and .reqnctapercluster: the launch must use this
    // cluster shape (Triton's launcher reads num_ctas from the metadata).
    if (numCTAs > 1)
      func->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                    b.getDenseI32ArrayAttr({int32_t(numCTAs), 1, 1}));
  }

  // The opt-in per-block maxima of the CUDA programming guide's table of
  // compute capabilities.
  bool hasWGMMA() const override { return cc == 90; }
  int64_t sharedMemoryLimit() const override {
    switch (cc) {
    case 80:
    case 87:
      return 163 * 1024;
    case 86:
    case 89:
    case 120:
    case 121:
      return 99 * 1024;
    case 90:
    case 100:
    case 103:
      return 227 * 1024;
    default:
      return cc >= 70 ? 96 * 1024 : 48 * 1024;
    }
  }

  void barrier(OpBuilder &b, Location loc) const override { NVVM::Barrier0Op::create(b, loc); }

  Value shuffle(OpBuilder &b, Location loc, Value i32, Shuffle kind,
                Value laneOrMask) const override {
    Type t = b.getI32Type();
    auto constant = [&](int32_t v) {
      return LLVM::ConstantOp::create(b, loc, t, b.getI32IntegerAttr(v));
    };
    // The c operand: segment mask 0 (one 32-lane segment) and the clamp,
    // the highest lane for bfly/idx and 0 for up.
    NVVM::ShflKind nvKind = kind == Shuffle::Xor ? NVVM::ShflKind::bfly
                            : kind == Shuffle::Up ? NVVM::ShflKind::up
                                                  : NVVM::ShflKind::idx;
    Value clamp = constant(kind == Shuffle::Up ? 0 : 0x1f);
    return NVVM::ShflOp::create(b, loc, t, constant(-1), i32, laneOrMask, clamp, nvKind,
                                UnitAttr());
  }

  std::string mathFunction(StringRef opName, Type type) const override {
    auto it = libdeviceMath().find(opName);
    if (it == libdeviceMath().end() || !(type.isF32() || type.isF64()))
      return "";
    return type.isF32() ? it->second.first : it->second.second;
  }

  std::string mulhiFunction(Type type) const override {
    return type.isInteger(32) ? "__nv_umulhi" : "__nv_umul64hi";
  }

  // As Triton: the non-flushing approximation (Triton's exp is x * log2(e)
  // through it).
  Value exp2Approx(OpBuilder &b, Location loc, Value x) const override {
    return intrinsic(b, loc, "llvm.nvvm.ex2.approx.f32", x.getType(), x);
  }

  Value divF32(OpBuilder &b, Location loc, Value x, Value y, bool precise) const override {
    return intrinsic(b, loc, precise ? "llvm.nvvm.div.rn.f" : "llvm.nvvm.div.full", x.getType(),
                     {x, y});
  }

  Value divApproxF32(OpBuilder &b, Location loc, Value x, Value y) const override {
    return intrinsic(b, loc, "llvm.nvvm.div.approx.f", x.getType(), {x, y});
  }

  Value preciseSqrtF32(OpBuilder &b, Location loc, Value x) const override {
    return intrinsic(b, loc, "llvm.nvvm.sqrt.rn.f", x.getType(), x);
  }

  Value truncF32(OpBuilder &b, Location loc, Value x, Type dst, bool towardZero) const override {
    if (!towardZero)
      return LLVM::FPTruncOp::create(b, loc, dst, x);
    std::string text = "cvt.rz." + std::string(dst.isF16() ? "f16" : "bf16") + ".f32 $0, $1;";
    Value bits = ptx(b, loc, b.getI16Type(), text, "=h,r", x);
    return LLVM::BitcastOp::create(b, loc, dst, bits);
  }

  Value toFp8x2(OpBuilder &b, Location loc, Value lo, Value hi, Type fp8) const override {
    std::string kind = isa<Float8E4M3FNType>(fp8) ? "e4m3x2" : "e5m2x2";
    if (lo.getType().isF32()) // cvt puts its first source in the high byte
      return ptx(b, loc, b.getI16Type(), "cvt.rn.satfinite." + kind + ".f32 $0, $2, $1;",
                 "=h,r,r", {lo, hi});
    auto pair = VectorType::get(2, lo.getType());
    Value v = LLVM::UndefOp::create(b, loc, pair);
    v = LLVM::InsertElementOp::create(b, loc, v, lo, constI32(b, loc, 0));
    v = LLVM::InsertElementOp::create(b, loc, v, hi, constI32(b, loc, 1));
    Value packed = LLVM::BitcastOp::create(b, loc, b.getI32Type(), v);
    return ptx(b, loc, b.getI16Type(), "cvt.rn.satfinite." + kind + ".f16x2 $0, $1;", "=h,r",
               packed);
  }

  std::pair<Value, Value> fromFp8x2(OpBuilder &b, Location loc, Value packed,
                                    Type fp8) const override {
    if (cc < 89)
      return {fp8ToF16(b, loc, packed, 0, fp8), fp8ToF16(b, loc, packed, 8, fp8)};
    std::string kind = isa<Float8E4M3FNType>(fp8) ? "e4m3x2" : "e5m2x2";
    Value halves = ptx(b, loc, b.getI32Type(), "cvt.rn.f16x2." + kind + " $0, $1;", "=r,h", packed);
    Value v = LLVM::BitcastOp::create(b, loc, VectorType::get(2, b.getF16Type()), halves);
    return {LLVM::ExtractElementOp::create(b, loc, v, constI32(b, loc, 0)),
            LLVM::ExtractElementOp::create(b, loc, v, constI32(b, loc, 1))};
  }

  Value loadGlobal(OpBuilder &b, Location loc, Value ptr, Type type, CacheHints hints,
                   Value pred, Value other) const override {
    return emitLoadGlobal(b, loc, ptr, type, hints, pred, other);
  }

  void storeGlobal(OpBuilder &b, Location loc, Value ptr, Value value, CacheHints hints,
                   Value pred) const override {
    emitStoreGlobal(b, loc, ptr, value, hints, pred);
  }

  // stmatrix is sm_90's.
  bool hasMatrixStore() const override { return cc >= 90; }

  // NVVM spells the transposed forms (.trans) as the column layout.
  static NVVM::MMALayout matrixLayout(bool transposed) {
    return transposed ? NVVM::MMALayout::col : NVVM::MMALayout::row;
  }

  void storeMatrices(OpBuilder &b, Location loc, Value address, ValueRange words,
                     bool transposed) const override {
    MLIRContext *ctx = b.getContext();
    NVVM::StMatrixOp::create(b, loc, address, words,
                             NVVM::MMALayoutAttr::get(ctx, matrixLayout(transposed)),
                             NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8),
                             NVVM::LdStMatrixEltTypeAttr::get(ctx, NVVM::LdStMatrixEltType::B16));
  }

  // ldmatrix is sm_75's.
  bool hasMatrixLoad() const override { return cc >= 75; }

  SmallVector<Value, 4> loadMatrices(OpBuilder &b, Location loc, Value address,
                                     bool transposed) const override {
    MLIRContext *ctx = b.getContext();
    Type i32 = b.getI32Type();
    auto four = LLVM::LLVMStructType::getLiteral(ctx, {i32, i32, i32, i32});
    Value words = NVVM::LdMatrixOp::create(
        b, loc, four, address, /*num=*/4, matrixLayout(transposed),
        NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8), NVVM::LdStMatrixEltType::B16);
    SmallVector<Value, 4> out;
    for (int64_t i = 0; i < 4; ++i)
      out.push_back(LLVM::ExtractValueOp::create(b, loc, words, i));
    return out;
  }

  std::string asyncCopyUnsupported() const override {
    return cc >= 80 ? "" : "cp.async needs sm_80";
  }

  void asyncCopy(OpBuilder &b, Location loc, Value dst, Value src, unsigned bytes,
                 Value pred) const override {
    // A false predicate reads 0 bytes (cp.async's src-size), which fills
    // the destination with zeros.
    Value srcBytes;
    if (pred)
      srcBytes = LLVM::SelectOp::create(b, loc, pred, constI32(b, loc, int32_t(bytes)),
                                        constI32(b, loc, 0));
    // As Triton: only 16-byte copies may bypass L1 (.cg); the rest cache
    // at all levels (.ca).
    auto modifier = bytes == 16 ? NVVM::LoadCacheModifierKind::CG : NVVM::LoadCacheModifierKind::CA;
    NVVM::CpAsyncOp::create(b, loc, dst, src, b.getI32IntegerAttr(int32_t(bytes)),
                            NVVM::LoadCacheModifierKindAttr::get(b.getContext(), modifier),
                            srcBytes);
  }

  void asyncCommitGroup(OpBuilder &b, Location loc) const override {
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }

  void asyncWaitGroup(OpBuilder &b, Location loc, unsigned pending) const override {
    NVVM::CpAsyncWaitGroupOp::create(b, loc, b.getI32IntegerAttr(int32_t(pending)));
  }

  std::string asyncProxyFenceUnsupported() const override {
    return cc >= 90 ? "" : "fence.proxy.async needs sm_90";
  }

  void fenceAsyncShared(OpBuilder &b, Location loc, bool cluster) const override {
    MLIRContext *ctx = b.getContext();
    auto space = cluster ? NVVM::SharedSpace::shared_cluster : NVVM::SharedSpace::shared_cta;
    NVVM::FenceProxyOp::create(b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
                               NVVM::SharedSpaceAttr::get(ctx, space));
  }

  void printf(OpBuilder &b, Location loc, Value format, ValueRange args) const override {
    MLIRContext *ctx = b.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    Operation *at = b.getInsertionBlock()->getParentOp();
    auto vprintf = declare(b, at, "vprintf", b.getI32Type(), {ptrType, ptrType});
    // vprintf takes its arguments packed in a local buffer, each at its
    // natural alignment, as a struct lays them out.
    Value buffer = LLVM::ZeroOp::create(b, loc, ptrType);
    if (!args.empty()) {
      SmallVector<Type> types(args.getTypes());
      auto st = LLVM::LLVMStructType::getLiteral(ctx, types);
      // In the entry block of the function, or of the warp-specialised
      // partition (a region isolated from the function's values) the
      // printf is in.
      Region *region = b.getInsertionBlock()->getParent();
      while (region->getParentOp() &&
             !region->getParentOp()->hasTrait<OpTrait::IsIsolatedFromAbove>() &&
             region->getParentOp()->getParentRegion())
        region = region->getParentOp()->getParentRegion();
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&region->front());
        buffer = LLVM::AllocaOp::create(b, loc, ptrType, st, constI32(b, loc, 1), 0);
      }
      for (auto [i, arg] : llvm::enumerate(args)) {
        Value field = LLVM::GEPOp::create(b, loc, ptrType, st, buffer,
                                          ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
        LLVM::StoreOp::create(b, loc, arg, field);
      }
    }
    LLVM::CallOp::create(b, loc, vprintf, ValueRange{format, buffer});
  }

  void assertFail(OpBuilder &b, Location loc, Value message, Value file, unsigned line,
                  Value function) const override {
    MLIRContext *ctx = b.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    Operation *at = b.getInsertionBlock()->getParentOp();
    // CUDA's void __assertfail(message, file, line, function, charSize).
    auto fn = declare(b, at, "__assertfail", LLVM::LLVMVoidType::get(ctx),
                      {ptrType, ptrType, b.getI32Type(), ptrType, b.getI64Type()});
    fn.setPassthroughAttr(ArrayAttr::get(ctx, StringAttr::get(ctx, "noreturn")));
    Value charSize = LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(1));
    LLVM::CallOp::create(b, loc, fn,
                         ValueRange{message, file, constI32(b, loc, line), function, charSize});
  }

  Value ballot(OpBuilder &b, Location loc, Value pred) const override {
    Type i32 = b.getI32Type();
    Value all = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(-1));
    return NVVM::VoteSyncOp::create(b, loc, i32, all, pred, NVVM::VoteSyncKind::ballot);
  }

  // The atom forms of the PTX ISA: integer ops on 32/64 bits; add of f32
  // and f64, of f16 (sm_70) and bf16 (sm_90) with .noftz; exch of any
  // 32/64-bit value.
  std::string atomicUnsupported(AtomicKind kind, Type elem) const override {
    unsigned bits = elem.getIntOrFloatBitWidth();
    bool isInt = isa<IntegerType>(elem);
    std::string name = "atomic " + kindName(kind).str() + " of " + typeName(elem);
    switch (kind) {
    case AtomicKind::FAdd:
      if (elem.isF32() || elem.isF64())
        return "";
      if (elem.isF16())
        return cc >= 70 ? "" : name + " needs sm_70";
      if (elem.isBF16())
        return cc >= 90 ? "" : name + " needs sm_90";
      return name + " is not a PTX atom (fadd takes f16, bf16, f32, f64)";
    case AtomicKind::Exch:
      if (bits == 32 || bits == 64)
        return "";
      return name + " is not a PTX atom (exch takes 32- or 64-bit values)";
    default:
      if (isInt && (bits == 32 || bits == 64))
        return "";
      return name + " is not a PTX atom (" + kindName(kind).str() +
             " takes 32- or 64-bit integers" +
             (kind == AtomicKind::Add && !isInt ? "; floats use fadd)" : ")");
    }
  }

  std::string casUnsupported(Type elem) const override {
    unsigned bits = elem.getIntOrFloatBitWidth();
    if (bits == 32 || bits == 64 || (bits == 16 && cc >= 70))
      return "";
    return "atomic cas of " + typeName(elem) + " is not a PTX atom (cas takes 32- or 64-bit " +
           "values, 16-bit from sm_70)";
  }

  // sm_90's vector atom (.v2/.v4/.v8) covers fadd of f16, bf16 and f32, as
  // Triton uses it; below, f16 pairs go as one f16x2.
  unsigned atomicElements(AtomicKind kind, Type elem, unsigned available) const override {
    if (kind != AtomicKind::FAdd || available < 2)
      return 1;
    if (vectorAtomics(kind, elem))
      return std::min(available, 128 / elem.getIntOrFloatBitWidth());
    return elem.isF16() ? 2 : 1;
  }

  SmallVector<Value> atomicRMW(OpBuilder &b, Location loc, const Atomic &atomic, Value ptr,
                               ArrayRef<Value> vals, Value pred) const override {
    Type elem = vals[0].getType();
    unsigned bits = elem.getIntOrFloatBitWidth();
    unsigned n = vals.size();
    bool vector = n > 1 && vectorAtomics(atomic.kind, elem);
    bool packed = n == 2 && !vector;
    std::string op = kindName(atomic.kind).str(), type;
    switch (atomic.kind) {
    case AtomicKind::And:
    case AtomicKind::Or:
    case AtomicKind::Xor:
    case AtomicKind::Exch:
      type = "b" + std::to_string(bits);
      break;
    case AtomicKind::UMax:
    case AtomicKind::UMin:
      op = atomic.kind == AtomicKind::UMax ? "max" : "min";
      type = "u" + std::to_string(bits);
      break;
    case AtomicKind::Add:
      type = "u" + std::to_string(bits);
      break;
    case AtomicKind::Max:
    case AtomicKind::Min:
      type = "s" + std::to_string(bits);
      break;
    case AtomicKind::FAdd:
      op = bits == 16 ? "add.noftz" : "add";
      type = (elem.isBF16() ? "bf" : "f") + std::to_string(bits) + (packed ? "x2" : "");
      break;
    }
    // Registers are integers of the access width (one f16x2 is 32 bits).
    Type reg = b.getIntegerType(packed ? 32 : bits);
    SmallVector<Value> inputs{ptr};
    SmallVector<StringRef> constraints{"l"};
    StringRef regConstraint = reg.getIntOrFloatBitWidth() == 16   ? "h"
                              : reg.getIntOrFloatBitWidth() == 64 ? "l"
                                                                  : "r";
    if (packed) {
      Value pair = LLVM::UndefOp::create(b, loc, VectorType::get(2, elem));
      for (unsigned i = 0; i < 2; ++i)
        pair = LLVM::InsertElementOp::create(
            b, loc, pair, vals[i],
            LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(i)));
      inputs.push_back(LLVM::BitcastOp::create(b, loc, reg, pair));
      constraints.push_back(regConstraint);
    } else {
      for (Value v : vals) {
        inputs.push_back(v.getType() == reg ? v : Value(LLVM::BitcastOp::create(b, loc, reg, v)));
        constraints.push_back(regConstraint);
      }
    }
    unsigned results = vector ? n : 1;
    std::string instr = "atom.global." + scopeName(atomic.scope).str() + "." +
                        orderName(atomic.order).str() + "." + op +
                        (vector ? ".v" + std::to_string(n) : "") + "." + type + " " +
                        operandList(0, results) + ", [ $" + std::to_string(results) +
                        " + 0 ], " + operandList(results + 1, inputs.size() - 1) + ";";
    SmallVector<Type> resultTypes(results, reg);
    Value out = emitPredicatedAsm(b, loc, instr, resultTypes, inputs, constraints, pred);
    SmallVector<Value> olds;
    if (packed) {
      Value pair = LLVM::BitcastOp::create(b, loc, VectorType::get(2, elem), out);
      for (unsigned i = 0; i < 2; ++i)
        olds.push_back(LLVM::ExtractElementOp::create(
            b, loc, pair,
            LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(i))));
      return olds;
    }
    for (unsigned i = 0; i < results; ++i) {
      Value v = results == 1 ? out : Value(LLVM::ExtractValueOp::create(b, loc, out, i));
      olds.push_back(elem == reg ? v : Value(LLVM::BitcastOp::create(b, loc, elem, v)));
    }
    return olds;
  }

  Value atomicCAS(OpBuilder &b, Location loc, MemOrder order, MemScope scope, Value ptr,
                  Value cmp, Value val, Value pred) const override {
    Type elem = val.getType();
    unsigned bits = elem.getIntOrFloatBitWidth();
    Type reg = b.getIntegerType(bits);
    auto asInt = [&](Value v) {
      return v.getType() == reg ? v : Value(LLVM::BitcastOp::create(b, loc, reg, v));
    };
    StringRef c = bits == 16 ? "h" : bits == 64 ? "l" : "r";
    // Triton's spelling: semantics before scope for cas.
    std::string instr = "atom.global." + orderName(order).str() + "." + scopeName(scope).str() +
                        ".cas.b" + std::to_string(bits) + " $0, [ $1 + 0 ], $2, $3;";
    Value out = emitPredicatedAsm(b, loc, instr, {reg}, {ptr, asInt(cmp), asInt(val)},
                                  {"l", c, c}, pred);
    return elem == reg ? out : Value(LLVM::BitcastOp::create(b, loc, elem, out));
  }

  // As Triton 3.9 spells them: "@$p ld.relaxed.gpu.global.b32 $0, [ $1 + 0 ];"
  // with the result set to 0 first; 8-bit values travel in 16-bit registers.
  Value atomicLoad(OpBuilder &b, Location loc, MemScope scope, Value ptr, Type type,
                   Value pred) const override {
    unsigned bits = type.getIntOrFloatBitWidth();
    Type reg = b.getIntegerType(std::max(16u, bits));
    std::string instr = "ld.relaxed." + scopeName(scope).str() + ".global.b" +
                        std::to_string(bits) + " $0, [ $1 + 0 ];";
    Value out = emitPredicatedAsm(b, loc, instr, {reg}, {ptr}, {"l"}, pred);
    if (bits < 16)
      out = LLVM::TruncOp::create(b, loc, b.getIntegerType(bits), out);
    return out.getType() == type ? out : Value(LLVM::BitcastOp::create(b, loc, type, out));
  }

  void atomicStore(OpBuilder &b, Location loc, MemScope scope, Value ptr, Value value,
                   Value pred) const override {
    unsigned bits = value.getType().getIntOrFloatBitWidth();
    Type asInt = b.getIntegerType(bits);
    Value v = value.getType() == asInt ? value : Value(LLVM::BitcastOp::create(b, loc, asInt, value));
    if (bits < 16)
      v = LLVM::ZExtOp::create(b, loc, b.getI16Type(), v);
    std::string text = "st.relaxed." + scopeName(scope).str() + ".global.b" +
                       std::to_string(bits) + " [ $0 + 0 ], $1;";
    std::string constraints = std::string("l,") + (bits <= 16 ? "h" : bits == 64 ? "l" : "r");
    SmallVector<Value> args{ptr, v};
    if (pred) {
      text = "@$2 " + text;
      constraints += ",b";
      args.push_back(pred);
    }
    ptx(b, loc, Type(), text, constraints, args, /*sideEffects=*/true);
  }

  // fence.acquire/.release need sm_90; below, the stronger fence.acq_rel.
  void fence(OpBuilder &b, Location loc, MemOrder order, MemScope scope) const override {
    std::string sem = cc >= 90 ? orderName(order).str() : "acq_rel";
    ptx(b, loc, Type(), "fence." + sem + "." + scopeName(scope).str() + ";", "", {},
        /*sideEffects=*/true);
  }

  Value globalTimer(OpBuilder &b, Location loc) const override {
    return ptx(b, loc, b.getI64Type(), "mov.u64 $0, %globaltimer;", "=l", {},
               /*sideEffects=*/true);
  }

  std::string gridDependencyUnsupported() const override {
    return cc >= 90 ? "" : "griddepcontrol (programmatic dependent launch) needs sm_90";
  }
  void gridDependencyWait(OpBuilder &b, Location loc) const override {
    ptx(b, loc, Type(), "griddepcontrol.wait;", "", {}, /*sideEffects=*/true);
  }
  void gridDependencyLaunchDependents(OpBuilder &b, Location loc) const override {
    ptx(b, loc, Type(), "griddepcontrol.launch_dependents;", "", {}, /*sideEffects=*/true);
  }

  // A tensor descriptor argument is the 128-byte CUtensorMap itself, passed
  // by value as a __grid_constant__ parameter (`byval([128 x i8]) align
  // 64`); its TMA facts go on the parameter as `kiln.tensordesc_meta`, from
  // which the code generator writes the kernel's `tensordesc_meta`.
  // Rounding to fp8 is cvt.rn.satfinite.{e4m3,e5m2}x2, from sm_89 (the
  // widening direction, and e5m2 toward zero, take integer code below it).
  LogicalResult checkFpConversion(Operation *op, Type src, Type dst,
                                  bool towardZero) const override {
    bool e5m2TowardZero = towardZero && isa<Float8E5M2Type>(dst);
    if (cc < 89 && isa<Float8E4M3FNType, Float8E5M2Type>(dst) && src != dst && !e5m2TowardZero)
      return op->emitError() << "op 'tt.fp_to_fp' cannot be lowered to LLVM: converting to "
                             << dst << " needs sm_89 or later (cvt to fp8); this is sm_" << cc;
    return success();
  }

  // PTX inline asm takes registers (h 16-bit, r 32, l 64, f f32, d f64, q
  // 128), immediates (n), tied operands and ~{...} clobbers; `=` marks an
  // output, `&` an early clobber. Memory and other LLVM constraints abort
  // NVPTX's instruction selection.
  LogicalResult checkInlineAsmConstraints(Operation *op, StringRef constraints) const override {
    SmallVector<StringRef> parts;
    constraints.split(parts, ',');
    for (StringRef part : parts) {
      StringRef kind = part.trim().ltrim("=&");
      bool tied = !kind.empty() && llvm::all_of(kind, llvm::isDigit);
      bool clobber = kind.starts_with("~{") && kind.ends_with("}");
      if (!tied && !clobber && !llvm::is_contained({"h", "r", "l", "f", "d", "q", "n"}, kind))
        return op->emitError() << "inline asm constraint '" << part.trim()
                               << "' is not one PTX takes (h, r, l, f, d, q or n registers "
                                  "and immediates, '=' outputs, '&' early clobbers, tied "
                                  "operand numbers, ~{...} clobbers)";
    }
    return success();
  }

  LogicalResult checkTensorDescArgument(Operation *func, Type desc) const override {
    if (!hasTMA())
      return func->emitError() << "tensor descriptor arguments need TMA (cuda:90 or later); "
                                  "below it, ttir.rewrite-tensor-descriptor-to-pointer "
                                  "replaces them";
    return ttng::getTMADescriptorInfo(func, cast<tt::TensorDescType>(desc));
  }

  LogicalResult lowerTensorDescArgument(Operation *func, Operation *llvmFunc, unsigned i,
                                        Type descType) const override {
    FailureOr<ttng::TMADescriptorInfo> info =
        ttng::getTMADescriptorInfo(func, cast<tt::TensorDescType>(descType));
    if (failed(info))
      return failure();
    auto kernel = cast<LLVM::LLVMFuncOp>(llvmFunc);
    MLIRContext *ctx = func->getContext();
    Builder b(ctx);
    auto map = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), ttng::kTensorMapBytes);
    kernel.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(), TypeAttr::get(map));
    kernel.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                      b.getI64IntegerAttr(ttng::kTensorMapParamAlign));
    kernel.setArgAttr(i, "nvvm.grid_constant", UnitAttr::get(ctx));
    NamedAttribute meta[] = {
        b.getNamedAttr("swizzle", b.getI32IntegerAttr(info->swizzleMode)),
        b.getNamedAttr("elem_size", b.getI32IntegerAttr(info->elemSize)),
        b.getNamedAttr("elem_type", b.getI32IntegerAttr(info->elemType)),
        b.getNamedAttr("block_size", b.getDenseI64ArrayAttr(info->box)),
        b.getNamedAttr("fp4_padded", b.getBoolAttr(info->fp4Padded)),
    };
    kernel.setArgAttr(i, "kiln.tensordesc_meta", b.getDictionaryAttr(meta));
    return success();
  }

private:
  static StringRef kindName(AtomicKind kind) {
    switch (kind) {
    case AtomicKind::And:
      return "and";
    case AtomicKind::Or:
      return "or";
    case AtomicKind::Xor:
      return "xor";
    case AtomicKind::Add:
      return "add";
    case AtomicKind::FAdd:
      return "fadd";
    case AtomicKind::Max:
      return "max";
    case AtomicKind::Min:
      return "min";
    case AtomicKind::UMax:
      return "umax";
    case AtomicKind::UMin:
      return "umin";
    case AtomicKind::Exch:
      return "exch";
    }
    llvm_unreachable("kind");
  }

  bool hasTMA() const override { return cc >= 90; }

  void mbarrierInit(OpBuilder &b, Location loc, Value bar, unsigned count,
                    Value pred) const override {
    NVVM::MBarrierInitOp::create(b, loc, bar, constI32(b, loc, count), pred);
  }

  // NVVM's mbarrier.inval takes no predicate; inline PTX does.
  void mbarrierInval(OpBuilder &b, Location loc, Value bar, Value pred) const override {
    Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), bar);
    ptx(b, loc, Type(), "@$0 mbarrier.inval.shared::cta.b64 [$1];", "b,r", {pred, addr},
        /*sideEffects=*/true);
  }

  void mbarrierArriveExpectTx(OpBuilder &b, Location loc, Value bar, unsigned bytes,
                              Value pred) const override {
    NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), bar, constI32(b, loc, bytes),
                                           NVVM::MemScopeKind::CTA, /*relaxed=*/false, pred);
  }

  void mbarrierArrive(OpBuilder &b, Location loc, Value bar, unsigned count,
                      Value pred) const override {
    Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), bar);
    ptx(b, loc, Type(),
        "@$0 mbarrier.arrive.shared::cta.b64 _, [$1], " + std::to_string(count) + ";", "b,r",
        {pred, addr}, /*sideEffects=*/true);
  }

  // Release at CTA scope (the default), as CUTLASS's cluster barriers
  // arrive: what the arrival publishes is that this CTA's reads of a slot
  // (wgmma, already retired) are done. A cluster-scope release is a fence
  // over all of the thread's memory operations; in a pipelined loop it
  // made every refill wait on it (a clustered GEMM 2.4 times slower).
  void mbarrierArriveCluster(OpBuilder &b, Location loc, Value bar, unsigned count,
                             Value pred) const override {
    Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), bar);
    ptx(b, loc, Type(),
        "@$0 mbarrier.arrive.shared::cluster.b64 _, [$1], " + std::to_string(count) + ";",
        "b,r", {pred, addr}, /*sideEffects=*/true);
  }

  void fenceMbarrierInitCluster(OpBuilder &b, Location loc) const override {
    ptx(b, loc, Type(), "fence.mbarrier_init.release.cluster;", "", {}, /*sideEffects=*/true);
  }

  void clusterArrive(OpBuilder &b, Location loc, bool relaxed) const override {
    if (relaxed)
      NVVM::ClusterArriveRelaxedOp::create(b, loc, UnitAttr());
    else
      NVVM::ClusterArriveOp::create(b, loc, UnitAttr());
  }

  void clusterWait(OpBuilder &b, Location loc) const override {
    NVVM::ClusterWaitOp::create(b, loc, UnitAttr());
  }

  Value mbarrierTryWait(OpBuilder &b, Location loc, Value bar, Value phase,
                        unsigned suspendNs) const override {
    Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), bar);
    std::string hint = suspendNs ? ", " + std::to_string(suspendNs) : "";
    Value done = ptx(b, loc, b.getI32Type(),
                     "{ .reg .pred done; mbarrier.try_wait.parity.shared::cta.b64 done, [$1], $2" +
                         hint + "; selp.u32 $0, 1, 0, done; }",
                     "=r,r,r", {addr, phase}, /*sideEffects=*/true);
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, done, constI32(b, loc, 0));
  }

  // NVVM's op loops on try_wait until the phase completes; the suspend
  // hint (ns) is the one CUDA's own barrier wait uses.
  void mbarrierWait(OpBuilder &b, Location loc, Value bar, Value phase) const override {
    NVVM::MBarrierTryWaitParityOp::create(b, loc, bar, phase, constI32(b, loc, kWaitSuspendNs));
  }

  // The destination is the CTA's buffer as a shared::cluster address, the
  // form the instruction names (a CTA's own window is part of its cluster's).
  void tmaLoad(OpBuilder &b, Location loc, Value desc, Value dst, Value bar,
               ArrayRef<Value> coords, Value pred, Value ctaMask) const override {
    Value clusterDst =
        LLVM::AddrSpaceCastOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext(), 7), dst);
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, clusterDst, desc, coords, bar, /*im2colOffsets=*/ValueRange(),
        ctaMask, /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
        /*isCTAOnly=*/false, NVVM::CTAGroupKindAttr(), pred);
  }

  void tmaStore(OpBuilder &b, Location loc, Value desc, Value src, ArrayRef<Value> coords,
                Value pred) const override {
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(b, loc, desc, src, coords,
                                                       /*l2CacheHint=*/Value(),
                                                       NVVM::TMAStoreMode::TILE, pred);
  }

  // As for reductions: inline PTX takes the predicate.
  void tmaPrefetch(OpBuilder &b, Location loc, Value desc, ArrayRef<Value> coords,
                   Value pred) const override {
    SmallVector<Value> args{pred, LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), desc)};
    std::string constraints = "b,l", coordList;
    for (Value c : coords) {
      coordList += (args.size() > 2 ? ", $" : "$") + std::to_string(args.size());
      args.push_back(c);
      constraints += ",r";
    }
    ptx(b, loc, Type(),
        "@$0 cp.async.bulk.prefetch.tensor." + std::to_string(coords.size()) +
            "d.L2.global.tile [$1, {" + coordList + "}];",
        constraints, args, /*sideEffects=*/true);
  }

  // NVVM's reduction takes no predicate; inline PTX does.
  void tmaReduce(OpBuilder &b, Location loc, StringRef kind, Value desc, Value src,
                 ArrayRef<Value> coords, Value pred) const override {
    SmallVector<Value> args{pred, LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), desc),
                            LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), src)};
    std::string constraints = "b,l,r", coordList;
    for (Value c : coords) {
      coordList += (args.size() > 3 ? ", $" : "$") + std::to_string(args.size());
      args.push_back(c);
      constraints += ",r";
    }
    std::string text = "@$0 cp.reduce.async.bulk.tensor." + std::to_string(coords.size()) +
                       "d.global.shared::cta." + kind.str() + ".tile.bulk_group [$1, {" +
                       coordList + "}], [$2];";
    ptx(b, loc, Type(), text, constraints, args, /*sideEffects=*/true);
  }

  void bulkCommitGroup(OpBuilder &b, Location loc) const override {
    NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
  }

  void bulkWaitGroupRead(OpBuilder &b, Location loc, unsigned pending) const override {
    NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, b.getI32IntegerAttr(int32_t(pending)),
                                         b.getUnitAttr());
  }

  std::string mmaUnsupported(const MmaSync &mma) const override {
    if (cc < 80)
      return "mma.sync m16n8 needs sm_80 or newer, the target is sm_" + std::to_string(cc);
    if ((mma.ab == MmaType::E4M3 || mma.ab == MmaType::E5M2) && cc < 89)
      return "mma.sync on fp8 (e4m3, e5m2) needs sm_89 or newer, the target is sm_" +
             std::to_string(cc);
    return "";
  }

  SmallVector<Value> mmaSync(OpBuilder &b, Location loc, const MmaSync &mma, ValueRange a,
                             ValueRange bOps, ValueRange c) const override {
    Type accType = mma.acc == MmaType::F32   ? Type(b.getF32Type())
                   : mma.acc == MmaType::S32 ? Type(b.getI32Type())
                                             : Type(b.getF16Type());
    SmallVector<Type> accs(4, accType);
    if (mma.ab == MmaType::E4M3 || mma.ab == MmaType::E5M2)
      return fp8MmaSync(b, loc, mma, a, bOps, c);
    // NVVM wants f16 fragments as <2 x half>, f16 accumulators in pairs.
    auto f16x2 = VectorType::get(2, b.getF16Type());
    auto operands = [&](ValueRange regs) {
      SmallVector<Value> out;
      for (Value r : regs)
        out.push_back(mma.ab == MmaType::F16 ? Value(LLVM::BitcastOp::create(b, loc, f16x2, r))
                                             : r);
      return out;
    };
    SmallVector<Value> accIn;
    SmallVector<Type> resultTypes;
    if (mma.acc == MmaType::F16) {
      for (unsigned i = 0; i < 4; i += 2) {
        Value v = LLVM::UndefOp::create(b, loc, f16x2);
        v = LLVM::InsertElementOp::create(b, loc, v, c[i], constI32(b, loc, 0));
        accIn.push_back(LLVM::InsertElementOp::create(b, loc, v, c[i + 1], constI32(b, loc, 1)));
      }
      resultTypes.assign(2, f16x2);
    } else {
      accIn.assign(c.begin(), c.end());
      resultTypes = accs;
    }
    NVVM::MMATypes ab = mma.ab == MmaType::F16    ? NVVM::MMATypes::f16
                        : mma.ab == MmaType::BF16 ? NVVM::MMATypes::bf16
                        : mma.ab == MmaType::TF32 ? NVVM::MMATypes::tf32
                                                  : NVVM::MMATypes::s8;
    std::optional<NVVM::MMAIntOverflow> overflow;
    if (mma.ab == MmaType::S8) // as Triton: clamp to the i32 range
      overflow = NVVM::MMAIntOverflow::satfinite;
    auto resultType = LLVM::LLVMStructType::getLiteral(b.getContext(), resultTypes);
    Value d = NVVM::MmaOp::create(
        b, loc, resultType, operands(a), operands(bOps), accIn,
        ArrayRef<int64_t>{mma.m, mma.n, mma.k}, std::nullopt, overflow,
        std::array<NVVM::MMATypes, 2>{ab, ab},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
    SmallVector<Value> out;
    for (unsigned i = 0; i < resultTypes.size(); ++i) {
      Value part = LLVM::ExtractValueOp::create(b, loc, d, i);
      if (mma.acc != MmaType::F16) {
        out.push_back(part);
        continue;
      }
      out.push_back(LLVM::ExtractElementOp::create(b, loc, part, constI32(b, loc, 0)));
      out.push_back(LLVM::ExtractElementOp::create(b, loc, part, constI32(b, loc, 1)));
    }
    return out;
  }

  Value toTF32(OpBuilder &b, Location loc, Value f32) const override {
    return ptx(b, loc, b.getI32Type(), "cvt.rna.tf32.f32 $0, $1;", "=r,f", f32);
  }

  /// NVVM's mma.sync has no fp8 form: inline PTX (m16n8k32, f32 accumulators).
  SmallVector<Value> fp8MmaSync(OpBuilder &b, Location loc, const MmaSync &mma, ValueRange a,
                                ValueRange bOps, ValueRange c) const {
    std::string type = mma.ab == MmaType::E4M3 ? "e4m3" : "e5m2";
    std::string text = "mma.sync.aligned.m16n8k" + std::to_string(mma.k) + ".row.col.f32." +
                       type + "." + type + ".f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, " +
                       "{$10, $11, $12, $13};";
    SmallVector<Value> args(a.begin(), a.end());
    args.append(bOps.begin(), bOps.end());
    args.append(c.begin(), c.end());
    SmallVector<Type> f32s(4, b.getF32Type());
    Value d = ptx(b, loc, LLVM::LLVMStructType::getLiteral(b.getContext(), f32s), text,
                  "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3", args);
    SmallVector<Value> out;
    for (unsigned i = 0; i < 4; ++i)
      out.push_back(LLVM::ExtractValueOp::create(b, loc, d, i));
    return out;
  }

  bool vectorAtomics(AtomicKind kind, Type elem) const {
    return cc >= 90 && kind == AtomicKind::FAdd && (elem.isF16() || elem.isBF16() || elem.isF32());
  }

  unsigned cc;
};

} // namespace

std::unique_ptr<NVIDIATargetInfo> createTargetInfo(unsigned computeCapability) {
  return std::make_unique<NVVMTargetInfo>(computeCapability);
}

const NVIDIATargetInfo &targetInfo(const lowering::Context &ctx) {
  return static_cast<const NVIDIATargetInfo &>(ctx.target);
}

} // namespace nvidia
} // namespace kiln

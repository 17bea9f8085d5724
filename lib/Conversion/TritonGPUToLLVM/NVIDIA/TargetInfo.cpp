//===- TargetInfo.cpp - NVIDIA's side of the LLVM lowering ----------------===//
//
// The only file of the lowering that includes the NVVM dialect.
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace kiln {

namespace {

std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

StringRef scopeName(TargetInfo::MemScope scope) {
  switch (scope) {
  case TargetInfo::MemScope::CTA:
    return "cta";
  case TargetInfo::MemScope::GPU:
    return "gpu";
  case TargetInfo::MemScope::System:
    return "sys";
  }
  llvm_unreachable("scope");
}

StringRef orderName(TargetInfo::MemOrder order) {
  switch (order) {
  case TargetInfo::MemOrder::Relaxed:
    return "relaxed";
  case TargetInfo::MemOrder::Acquire:
    return "acquire";
  case TargetInfo::MemOrder::Release:
    return "release";
  case TargetInfo::MemOrder::AcqRel:
    return "acq_rel";
  }
  llvm_unreachable("order");
}

/// One inline-PTX instruction with integer operands, as Triton emits its
/// atomics: results first ($0..), then the inputs, then the predicate; with
/// a predicate each result starts at 0, so masked-off lanes read 0.
Value emitPredicatedAsm(OpBuilder &b, Location loc, StringRef instr, ArrayRef<Type> resultTypes,
                        ArrayRef<Value> inputs, ArrayRef<StringRef> inputConstraints,
                        Value pred) {
  auto regClass = [](Type t) {
    unsigned bits = t.getIntOrFloatBitWidth();
    return bits == 16 ? "h" : bits == 64 ? "l" : "r";
  };
  std::string text, constraints;
  llvm::raw_string_ostream os(text), cs(constraints);
  unsigned n = resultTypes.size();
  for (unsigned i = 0; i < n; ++i) {
    cs << (i ? "," : "") << "=" << regClass(resultTypes[i]);
    if (pred)
      os << "mov.u" << resultTypes[i].getIntOrFloatBitWidth() << " $" << i << ", 0x0;\n\t";
  }
  for (StringRef c : inputConstraints)
    cs << "," << c;
  SmallVector<Value> operands(inputs);
  if (pred) {
    os << "@$" << n + inputs.size() << " ";
    cs << ",b";
    operands.push_back(pred);
  }
  os << instr;
  Type result = n == 1 ? resultTypes[0]
                       : Type(LLVM::LLVMStructType::getLiteral(b.getContext(), resultTypes));
  return LLVM::InlineAsmOp::create(b, loc, result, operands, text, constraints,
                                   /*has_side_effects=*/true, /*is_align_stack=*/false,
                                   LLVM::tailcallkind::TailCallKind::None,
                                   LLVM::AsmDialectAttr::get(b.getContext(),
                                                             LLVM::AsmDialect::AD_ATT),
                                   ArrayAttr())
      .getResult(0);
}

/// "$i" operands, braced as a PTX vector when there are several.
std::string operandList(unsigned first, unsigned count) {
  std::string s = count > 1 ? "{ " : "";
  for (unsigned i = 0; i < count; ++i)
    s += (i ? ", $" : "$") + std::to_string(first + i);
  return s + (count > 1 ? " }" : "");
}

class NVIDIATargetInfo final : public TargetInfo {
public:
  explicit NVIDIATargetInfo(unsigned cc) : cc(cc) {}

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<NVVM::NVVMDialect>();
  }

  Value threadId(OpBuilder &b, Location loc) const override {
    return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  }

  Value programId(OpBuilder &b, Location loc, unsigned axis) const override {
    Type i32 = b.getI32Type();
    switch (axis) {
    case 0:
      return NVVM::BlockIdXOp::create(b, loc, i32);
    case 1:
      return NVVM::BlockIdYOp::create(b, loc, i32);
    default:
      return NVVM::BlockIdZOp::create(b, loc, i32);
    }
  }

  Value numPrograms(OpBuilder &b, Location loc, unsigned axis) const override {
    Type i32 = b.getI32Type();
    switch (axis) {
    case 0:
      return NVVM::GridDimXOp::create(b, loc, i32);
    case 1:
      return NVVM::GridDimYOp::create(b, loc, i32);
    default:
      return NVVM::GridDimZOp::create(b, loc, i32);
    }
  }

  // As Triton 3.6: the block size is required (reqntid), not only bounded,
  // and a register cap only when the module asks for one.
  void markKernel(Operation *func, unsigned numThreads,
                  std::optional<unsigned> maxRegisters) const override {
    Builder b(func->getContext());
    func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
    func->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                  b.getDenseI32ArrayAttr({int32_t(numThreads)}));
    if (maxRegisters)
      func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    b.getI32IntegerAttr(int32_t(*maxRegisters)));
  }

  // The opt-in per-block maxima of the CUDA programming guide's table of
  // compute capabilities.
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

  bool vectorAtomics(AtomicKind kind, Type elem) const {
    return cc >= 90 && kind == AtomicKind::FAdd && (elem.isF16() || elem.isBF16() || elem.isF32());
  }

  unsigned cc;
};

} // namespace

std::unique_ptr<TargetInfo> createNVIDIATargetInfo(unsigned computeCapability) {
  return std::make_unique<NVIDIATargetInfo>(computeCapability);
}

} // namespace kiln

//===- PTXHelpers.cpp - building NVVM and inline PTX ----------------------===//
#include "PTXHelpers.h"

#include "Patterns.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace kiln::nvidia::detail {


/// libdevice's f32 and f64 function for each math op that Triton 3.6 lowers
/// through libdevice (the names MLIR's GPU-to-NVVM lowering uses).
const llvm::StringMap<std::pair<const char *, const char *>> &libdeviceMath() {
  static const llvm::StringMap<std::pair<const char *, const char *>> table = {
      {"math.acos", {"__nv_acosf", "__nv_acos"}},
      {"math.acosh", {"__nv_acoshf", "__nv_acosh"}},
      {"math.asin", {"__nv_asinf", "__nv_asin"}},
      {"math.asinh", {"__nv_asinhf", "__nv_asinh"}},
      {"math.atan", {"__nv_atanf", "__nv_atan"}},
      {"math.atan2", {"__nv_atan2f", "__nv_atan2"}},
      {"math.atanh", {"__nv_atanhf", "__nv_atanh"}},
      {"math.cbrt", {"__nv_cbrtf", "__nv_cbrt"}},
      {"math.ceil", {"__nv_ceilf", "__nv_ceil"}},
      {"math.cos", {"__nv_cosf", "__nv_cos"}},
      {"math.cosh", {"__nv_coshf", "__nv_cosh"}},
      {"math.erf", {"__nv_erff", "__nv_erf"}},
      {"math.erfc", {"__nv_erfcf", "__nv_erfc"}},
      {"math.exp", {"__nv_expf", "__nv_exp"}},
      {"math.exp2", {"__nv_exp2f", "__nv_exp2"}},
      {"math.expm1", {"__nv_expm1f", "__nv_expm1"}},
      {"math.floor", {"__nv_floorf", "__nv_floor"}},
      {"math.log", {"__nv_logf", "__nv_log"}},
      {"math.log10", {"__nv_log10f", "__nv_log10"}},
      {"math.log1p", {"__nv_log1pf", "__nv_log1p"}},
      {"math.log2", {"__nv_log2f", "__nv_log2"}},
      {"math.powf", {"__nv_powf", "__nv_pow"}},
      {"math.round", {"__nv_roundf", "__nv_round"}},
      {"math.rsqrt", {"__nv_rsqrtf", "__nv_rsqrt"}},
      {"math.sin", {"__nv_sinf", "__nv_sin"}},
      {"math.sinh", {"__nv_sinhf", "__nv_sinh"}},
      {"math.sqrt", {"__nv_sqrtf", "__nv_sqrt"}},
      {"math.tan", {"__nv_tanf", "__nv_tan"}},
      {"math.tanh", {"__nv_tanhf", "__nv_tanh"}},
  };
  return table;
}

Value intrinsic(OpBuilder &b, Location loc, StringRef name, Type result, ValueRange args) {
  return LLVM::CallIntrinsicOp::create(b, loc, result, b.getStringAttr(name), args).getResult(0);
}

Value ptx(OpBuilder &b, Location loc, Type result, StringRef text, StringRef constraints,
          ValueRange args, bool sideEffects) {
  return lowering::inlinePtx(b, loc, result, text, constraints, args, sideEffects);
}

Value constI32(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(int32_t(v)));
}

/// A declaration of `name` at the start of the module, or the one there.
LLVM::LLVMFuncOp declare(OpBuilder &b, Operation *at, StringRef name, Type result,
                         ArrayRef<Type> params) {
  auto module = at->getParentOfType<ModuleOp>();
  if (auto found = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return found;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, UnknownLoc::get(b.getContext()), name,
                                  LLVM::LLVMFunctionType::get(result, params));
}

/// PTX's register constraint and width for a word of `bits` bits (8-bit
/// values travel in 16-bit registers).
std::pair<char, unsigned> word(unsigned bits) {
  if (bits <= 16)
    return {'h', 16};
  return bits == 32 ? std::pair<char, unsigned>{'r', 32} : std::pair<char, unsigned>{'l', 64};
}

/// How a value of `type` splits into PTX words: the word's bits (the
/// element's for 32/64-bit elements, else up to 32) and their number.
std::pair<unsigned, unsigned> words(Type type) {
  auto vec = dyn_cast<VectorType>(type);
  Type elem = vec ? vec.getElementType() : type;
  unsigned elemBits = isa<LLVM::LLVMPointerType>(elem) ? 64 : elem.getIntOrFloatBitWidth();
  unsigned total = elemBits * (vec ? vec.getNumElements() : 1);
  unsigned bits = elemBits >= 32 ? elemBits : std::min(32u, total);
  return {bits, total / bits};
}

/// `value` as its n PTX words of `bits` bits, each in a register of
/// `regType` (words narrower than their register zero-extended).
SmallVector<Value> toWords(OpBuilder &b, Location loc, Value value, unsigned bits, unsigned n,
                           Type regType) {
  Type wordType = b.getIntegerType(bits);
  Value asWords = LLVM::BitcastOp::create(
      b, loc, n == 1 ? wordType : Type(VectorType::get(n, wordType)), value);
  SmallVector<Value> out;
  for (unsigned i = 0; i < n; ++i) {
    Value w = n == 1 ? asWords
                     : Value(LLVM::ExtractElementOp::create(b, loc, asWords, constI32(b, loc, i)));
    if (regType != wordType)
      w = LLVM::ZExtOp::create(b, loc, regType, w);
    out.push_back(w);
  }
  return out;
}

/// The cache-operator and eviction suffixes of an ld/st, and the PTX that
/// makes the L2 policy an evict hint needs (Triton 3.6 adds one to every
/// evict_first/evict_last access).
HintText hintText(TargetInfo::CacheHints hints) {
  HintText t;
  if (!hints.cache.empty())
    t.suffix += "." + hints.cache.str();
  if (!hints.evict.empty()) {
    t.suffix += ".L1::" + hints.evict.str() + ".L2::cache_hint";
    t.prologue = ".reg .b64 pol;\n\tcreatepolicy.fractional.L2::" + hints.evict.str() +
                 ".b64 pol, 1.0;\n\t";
    t.policyOperand = ", pol";
  }
  return t;
}

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
  return ptx(b, loc, result, text, constraints, operands, /*sideEffects=*/true);
}

/// "$i" operands, braced as a PTX vector when there are several.
std::string operandList(unsigned first, unsigned count) {
  std::string s = count > 1 ? "{ " : "";
  for (unsigned i = 0; i < count; ++i)
    s += (i ? ", $" : "$") + std::to_string(first + i);
  return s + (count > 1 ? " }" : "");
}

// As Triton 3.6 emits them: the registers set from `other` (or 0), then
// "@$p ld.global.v4.b32 {...}, [$ptr];" overwrites them where p holds.
Value emitLoadGlobal(OpBuilder &b, Location loc, Value ptr, Type type,
                   TargetInfo::CacheHints hints, Value pred, Value other) {
  auto [bits, n] = words(type);
  auto [reg, regBits] = word(bits);
  Type regType = b.getIntegerType(regBits);
  Type wordType = b.getIntegerType(bits);
  HintText h = hintText(hints);
  SmallVector<Value> args{ptr};
  std::string constraints;
  for (unsigned i = 0; i < n; ++i)
    constraints += std::string(i ? ",=" : "=") + reg;
  constraints += ",l";
  std::string text = "{\n\t" + h.prologue;
  if (pred) {
    args.push_back(pred);
    constraints += ",b";
    std::string p = "$" + std::to_string(n + 1);
    SmallVector<Value> others = other ? toWords(b, loc, other, bits, n, regType)
                                      : SmallVector<Value>();
    for (unsigned i = 0; i < n; ++i) {
      std::string src = "0";
      if (other) {
        src = "$" + std::to_string(n + 2 + i);
        args.push_back(others[i]);
        constraints += std::string(",") + reg;
      }
      // Unpredicated, as Triton writes it (movs under "@!p" measured
      // 15 % slower in a loop of masked loads on sm_90).
      text += "mov.b" + std::to_string(regBits) + " $" + std::to_string(i) + ", " + src +
              ";\n\t";
    }
    text += "@" + p + " ";
  }
  text += "ld.global" + h.suffix + (n > 1 ? ".v" + std::to_string(n) : "") + ".b" +
          std::to_string(bits) + " {";
  for (unsigned i = 0; i < n; ++i)
    text += (i ? ", $" : "$") + std::to_string(i);
  text += "}, [$" + std::to_string(n) + "]" + h.policyOperand + ";\n\t}";
  Type result = n == 1 ? regType
                       : LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                          SmallVector<Type>(n, regType));
  // Side effects: an unpredicated load must not be moved above the
  // branch that guards it either.
  Value loaded = ptx(b, loc, result, text, constraints, args, /*sideEffects=*/true);
  SmallVector<Value> parts;
  for (unsigned i = 0; i < n; ++i) {
    Value w = n == 1 ? loaded : Value(LLVM::ExtractValueOp::create(b, loc, loaded, i));
    if (regBits != bits)
      w = LLVM::TruncOp::create(b, loc, wordType, w);
    parts.push_back(w);
  }
  if (n == 1)
    return LLVM::BitcastOp::create(b, loc, type, parts[0]);
  Value v = LLVM::UndefOp::create(b, loc, VectorType::get(n, wordType));
  for (unsigned i = 0; i < n; ++i)
    v = LLVM::InsertElementOp::create(b, loc, v, parts[i], constI32(b, loc, i));
  return LLVM::BitcastOp::create(b, loc, type, v);
}

void emitStoreGlobal(OpBuilder &b, Location loc, Value ptr, Value value,
                   TargetInfo::CacheHints hints, Value pred) {
  auto [bits, n] = words(value.getType());
  auto [reg, regBits] = word(bits);
  SmallVector<Value> args{ptr};
  std::string constraints = "l";
  for (Value w : toWords(b, loc, value, bits, n, b.getIntegerType(regBits))) {
    args.push_back(w);
    constraints += std::string(",") + reg;
  }
  HintText h = hintText(hints);
  std::string text = "{\n\t" + h.prologue;
  if (pred) {
    args.push_back(pred);
    constraints += ",b";
    text += "@$" + std::to_string(n + 1) + " ";
  }
  text += "st.global" + h.suffix + (n > 1 ? ".v" + std::to_string(n) : "") + ".b" +
          std::to_string(bits) + " [$0], {";
  for (unsigned i = 0; i < n; ++i)
    text += (i ? ", $" : "$") + std::to_string(i + 1);
  text += "}" + h.policyOperand + ";\n\t}";
  ptx(b, loc, Type(), text, constraints, args, /*sideEffects=*/true);
}

} // namespace kiln::nvidia::detail

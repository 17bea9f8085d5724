//===- MathX.cpp - example plugin: new kernel-language ops ----------------===//
//
// Level 3 of kiln's plugin system: ops that kernel authors call by name
// from any frontend (KernelBuilder::call("mathx.softplus", {x})), and, being
// elementwise, from `@triton.jit` kernels (`from kiln.language import
// mathx`, then `mathx.softplus(x)`). Each is a
// name, its operand names, a one-line signature and summary, and a builder
// that expands it into existing arith/math/tt ops through the
// KernelBuilder, so the rest of the compiler never learns about it:
//
//   mathx.softplus(x)      log(1 + exp(x)), without overflow for large x
//   mathx.lerp(a, b, t)    a + t * (b - a)
//   mathx.clamp(x, lo, hi) x limited to [lo, hi]; NaN stays NaN
//
// Operands follow the KernelBuilder's rules: scalars and size-1 dimensions
// broadcast, element types must agree. A wrong operand is reported through
// the builder (a located error), never a crash.
//
//===----------------------------------------------------------------------===//
#include "kiln/Frontend/KernelBuilder.h"
#include "kiln/Plugin/OpRegistry.h"
#include "kiln/Plugin/PluginAPI.h"

using namespace mlir;
using kiln::KernelBuilder;

namespace {

using Results = FailureOr<SmallVector<Value>>;

/// Rejects non-float operands of `op` with an error naming the op.
LogicalResult requireFloat(KernelBuilder &kb, StringRef op, ValueRange operands) {
  for (Value v : operands)
    if (!isa<FloatType>(KernelBuilder::elementType(v)))
      return kb.emitError() << op << " takes float operands, got " << v.getType();
  return success();
}

/// The naive log(1 + exp(x)) overflows to inf once exp(x) does (x > ~88 in
/// f32) and loses everything below 1 + eps. Split off the linear part:
///   softplus(x) = max(x, 0) + log1p(exp(-|x|)),
/// where exp's argument is never positive and log1p keeps small values.
Results softplus(KernelBuilder &kb, ValueRange operands) {
  Value x = operands[0];
  if (failed(requireFloat(kb, "mathx.softplus", operands)))
    return failure();
  Value zero = kb.constFloat(0.0, KernelBuilder::elementType(x));
  Value linear = kb.maximum(x, zero);
  Value tail = kb.math(kiln::MathFn::Log1p, kb.exp(kb.neg(kb.abs(x))));
  Value result = kb.add(linear, tail);
  if (!result)
    return failure();
  return SmallVector<Value>{result};
}

/// a + t * (b - a) as one fma: one rounding fewer, and exact at t = 0.
Results lerp(KernelBuilder &kb, ValueRange operands) {
  Value a = operands[0], b = operands[1], t = operands[2];
  if (failed(requireFloat(kb, "mathx.lerp", operands)))
    return failure();
  Value result = kb.fma(t, kb.sub(b, a), a);
  if (!result)
    return failure();
  return SmallVector<Value>{result};
}

/// min(max(x, lo), hi). maxnumf/minnumf would turn a NaN x into lo, hiding
/// it; a float clamp keeps NaN (x != x only for NaN). Integers are signed.
Results clamp(KernelBuilder &kb, ValueRange operands) {
  Value x = operands[0], lo = operands[1], hi = operands[2];
  Value result = kb.minimum(kb.maximum(x, lo), hi);
  if (result && isa<FloatType>(KernelBuilder::elementType(x)))
    result = kb.select(kb.cmp(kiln::CmpKind::NE, x, x), x, result);
  if (!result)
    return failure();
  return SmallVector<Value>{result};
}

/// One op of the registry, its fields named.
void addOp(kiln::OpRegistry &registry, StringRef name, std::vector<kiln::KernelOpOperand> operands,
           StringRef signature, StringRef summary,
           Results (*build)(KernelBuilder &, ValueRange)) {
  kiln::KernelOp op;
  op.name = name.str();
  op.operands = std::move(operands);
  op.numResults = 1;
  op.signature = signature.str();
  op.summary = summary.str();
  op.build = [build](KernelBuilder &kb, ValueRange operands, DictionaryAttr) {
    return build(kb, operands);
  };
  op.elementwise = true;
  registry.add(std::move(op));
}

void registerOps(kiln::OpRegistry &registry) {
  addOp(registry, "mathx.softplus", {"x"}, "(x: float) -> float",
        "log(1 + exp(x)), computed without overflow", &softplus);
  addOp(registry, "mathx.lerp", {"a", "b", "t"},
        "(a: float, b: float, t: float) -> float (operands broadcast)",
        "linear interpolation a + t * (b - a)", &lerp);
  addOp(registry, "mathx.clamp", {"x", "lo", "hi"},
        "(x: T, lo: T, hi: T) -> T, T integer (signed) or float (operands broadcast)",
        "x limited to [lo, hi]; a NaN x stays NaN", &clamp);
}

const kiln::PluginInfo info = {KILN_PLUGIN_HEADER("mathx", "1.0"),
                               /*registerDialects=*/nullptr, /*registerPasses=*/nullptr,
                               /*extendPipeline=*/nullptr, &registerOps};

} // namespace

KILN_PLUGIN(info)

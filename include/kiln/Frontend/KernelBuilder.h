//===- KernelBuilder.h - building TTIR kernels from C++ ---------*- C++ -*-===//
//
// The one C++ layer every kiln frontend (and every level-3 plugin op) emits
// TTIR through. It builds a module holding one public `tt.func` and offers
// the kernel language's vocabulary as calls: arguments, program ids, ranges,
// loads and stores, elementwise arithmetic with Triton's implicit
// broadcasting, dot, reductions, loops, and plugin ops by name (`call`).
//
//   kiln::KernelBuilder kb("add");
//   auto f32 = kb.builder().getF32Type();
//   Value x = kb.pointerArg(f32, "x", 16), z = kb.pointerArg(f32, "z", 16);
//   Value n = kb.scalarArg(kb.builder().getI32Type(), "n");
//   Value offs = kb.add(kb.mul(kb.programId(0), kb.constInt(1024)),
//                       kb.arange(0, 1024));
//   Value mask = kb.cmp(kiln::CmpKind::LT, offs, n);     // n splats to offs
//   (void)kb.store(kb.addptr(z, offs), kb.load(kb.addptr(x, offs), mask), mask);
//   mlir::OwningOpRef<mlir::ModuleOp> module = kb.finish(); // null on error
//
// Error convention. Misuse never crashes and never throws. A method that
// cannot build what it is asked for emits an error diagnostic through the
// context (at the current location, see setLoc) and then
//  - returns a null Value            (methods producing one value),
//  - returns failure()               (methods producing none or several).
// A method given a null operand returns null/failure *without* a new
// diagnostic: the first error already explains it, so a chain of calls can
// be written without checking each step, like NaN propagating through
// arithmetic. An error poisons the kernel: finish() then returns null, so a
// partly built kernel is never handed on. Ops are verified as they are
// built, so an invalid combination is reported where it was written, not
// later by the module verifier.
//
// Implicit promotion (Triton's rules, shapes only): the operands of an
// elementwise op are brought to one shape: scalars are splat, a tensor of
// lower rank gets leading size-1 dimensions, and size-1 dimensions are
// broadcast. Element types are never converted implicitly: mixing f16 and
// f32, or i32 and i64, is an error; convert with cast(). Integers are
// signless in TTIR; operations whose meaning depends on the sign (div, rem,
// min, max, comparisons, casts) take a Sign, signed by default.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_KERNELBUILDER_H
#define KILN_FRONTEND_KERNELBUILDER_H

#include "kiln/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/JSON.h"

#include <memory>

namespace kiln {

struct KernelOp;

/// How an integer operand is read where the sign matters. Ignored for floats.
enum class Sign { Signed, Unsigned };

/// Comparisons. Floats compare ordered (false if either is NaN), except NE,
/// which is true when either is NaN, as in Triton.
enum class CmpKind { EQ, NE, LT, LE, GT, GE };

/// One-operand math functions (math dialect). Abs also takes integers.
enum class MathFn {
  Exp,
  Exp2,
  Log,
  Log2,
  Log1p,
  Sqrt,
  Rsqrt,
  Sin,
  Cos,
  Tanh,
  Erf,
  Floor,
  Ceil,
  Abs
};

/// The built-in combine functions of reduce(). Max and Min on floats ignore
/// NaN (maxnumf/minnumf), as Triton's tl.max/tl.min do by default.
enum class ReduceKind { Sum, Max, Min };

class KernelBuilder {
public:
  /// Builds kernel `name` in a context the builder creates and owns. The
  /// module finish() returns lives in that context: keep the builder alive
  /// for as long as the module is used.
  explicit KernelBuilder(llvm::StringRef name);
  /// Builds kernel `name` in `context`, which must outlive the module. The
  /// dialects the builder emits are loaded into it.
  KernelBuilder(mlir::MLIRContext &context, llvm::StringRef name);
  /// Builds into `function`, an existing kernel, before `before` (a pass
  /// expanding an op in place); the builder owns nothing and finish() is
  /// not called.
  KernelBuilder(tt::FuncOp function, mlir::Operation *before);
  ~KernelBuilder();
  KernelBuilder(const KernelBuilder &) = delete;
  KernelBuilder &operator=(const KernelBuilder &) = delete;

  /// A context with everything a kernel may contain: kiln's dialects, plus
  /// the dialects of plugins loaded so far (kiln::PluginManager).
  static std::unique_ptr<mlir::MLIRContext> createContext();

  //===--- State and diagnostics ------------------------------------------===//

  mlir::MLIRContext &context() { return *ctx; }
  /// The underlying builder, positioned where the next op goes, for ops the
  /// methods below do not cover. Ops created with it directly are checked
  /// only by finish()'s verification.
  mlir::OpBuilder &builder() { return b; }
  /// The kernel function (null after finish()).
  tt::FuncOp function() { return func; }

  /// The location given to every op built from now on and to diagnostics;
  /// a frontend sets it to the source position it is translating.
  void setLoc(mlir::Location location) { currentLoc = location; }
  mlir::Location loc() const { return currentLoc; }

  /// Emits an error at loc() and marks the kernel failed. For plugin ops
  /// that reject their operands.
  mlir::InFlightDiagnostic emitError();
  /// Number of errors reported through this builder so far.
  unsigned numErrors() const { return errors; }
  bool hasErrors() const { return errors != 0; }

  /// The element type of a scalar or tensor (null for a null value).
  static mlir::Type elementType(mlir::Value value);
  /// The shape of a tensor; empty for a scalar.
  static llvm::ArrayRef<int64_t> shape(mlir::Value value);

  //===--- Arguments and program ids --------------------------------------===//
  // Arguments may be added at any point; they are appended to the signature.
  // `name` becomes the argument's location (a NameLoc), as Triton does.
  // `divisibility` (0: none) becomes `tt.divisibility`, the hint that the
  // value (for a pointer: its byte address) is a multiple of it.

  /// A `!tt.ptr<elementType>` argument (global memory).
  mlir::Value pointerArg(mlir::Type elementType, llvm::StringRef name = {},
                         unsigned divisibility = 0);
  /// An integer or float scalar argument.
  mlir::Value scalarArg(mlir::Type type, llvm::StringRef name = {}, unsigned divisibility = 0);

  /// tt.get_program_id / tt.get_num_programs on grid axis 0, 1 or 2 (i32).
  mlir::Value programId(int axis);
  mlir::Value numPrograms(int axis);

  //===--- Constants and ranges -------------------------------------------===//

  /// An integer scalar constant; `type` defaults to i32. The value must fit
  /// the type (signed or unsigned reading).
  mlir::Value constInt(int64_t value, mlir::Type type = {});
  /// A float scalar constant, rounded to `type` (default f32).
  mlir::Value constFloat(double value, mlir::Type type = {});
  /// A tensor of `shape` filled with `value` (an arith.constant splat). For
  /// integer element types `value` must be integral.
  mlir::Value full(llvm::ArrayRef<int64_t> shape, double value, mlir::Type elementType);
  /// tt.make_range: the i32 tensor [start, end).
  mlir::Value arange(int32_t start, int32_t end);

  //===--- Shapes ---------------------------------------------------------===//

  /// tt.splat of a scalar (pointers included) to `shape`.
  mlir::Value splat(mlir::Value scalar, llvm::ArrayRef<int64_t> shape);
  /// Brings `value` to `shape` by Triton's rules (splat a scalar, prepend
  /// size-1 dims, broadcast size-1 dims); returns `value` if it has it.
  mlir::Value broadcastTo(mlir::Value value, llvm::ArrayRef<int64_t> shape);
  /// tt.expand_dims: a new size-1 dimension at `axis` (negative counts
  /// from the end, as in Python: -1 appends).
  mlir::Value expandDims(mlir::Value tensor, int axis);
  /// tt.reshape to `shape` (same number of elements, row-major order kept).
  mlir::Value reshape(mlir::Value tensor, llvm::ArrayRef<int64_t> shape);
  /// tt.trans: result dimension i is dimension order[i]; an empty order
  /// reverses the dimensions.
  mlir::Value trans(mlir::Value tensor, llvm::ArrayRef<int32_t> order = {});

  //===--- Memory ---------------------------------------------------------===//

  /// tt.addptr: `ptr` advanced by `offset` elements. Pointer and offset are
  /// broadcast together, so a scalar pointer plus a tensor of offsets gives
  /// a tensor of pointers.
  mlir::Value addptr(mlir::Value ptr, mlir::Value offset);
  /// tt.load. `mask` (i1) and `other` (the value of masked-off elements,
  /// pointee type) are optional and broadcast to the pointer's shape;
  /// `other` needs a mask.
  mlir::Value load(mlir::Value ptr, mlir::Value mask = {}, mlir::Value other = {});
  /// tt.store; `value` and `mask` are broadcast to the pointer's shape.
  mlir::LogicalResult store(mlir::Value ptr, mlir::Value value, mlir::Value mask = {});

  //===--- Elementwise arithmetic (implicit promotion, see above) ----------===//

  mlir::Value add(mlir::Value lhs, mlir::Value rhs);
  mlir::Value sub(mlir::Value lhs, mlir::Value rhs);
  mlir::Value mul(mlir::Value lhs, mlir::Value rhs);
  /// Float division, or integer division rounding toward zero.
  mlir::Value div(mlir::Value lhs, mlir::Value rhs, Sign sign = Sign::Signed);
  /// Remainder with the sign of `lhs` (C's %, fmod for floats).
  mlir::Value rem(mlir::Value lhs, mlir::Value rhs, Sign sign = Sign::Signed);
  /// Floats: NaN-ignoring (minnumf/maxnumf), as Triton's default.
  mlir::Value minimum(mlir::Value lhs, mlir::Value rhs, Sign sign = Sign::Signed);
  mlir::Value maximum(mlir::Value lhs, mlir::Value rhs, Sign sign = Sign::Signed);
  /// Bitwise and/or/xor of integers (and i1 masks).
  mlir::Value bitAnd(mlir::Value lhs, mlir::Value rhs);
  mlir::Value bitOr(mlir::Value lhs, mlir::Value rhs);
  mlir::Value bitXor(mlir::Value lhs, mlir::Value rhs);
  /// -x (floats: negf; integers: 0 - x).
  mlir::Value neg(mlir::Value x);
  /// An i1 scalar/tensor: lhs <kind> rhs.
  mlir::Value cmp(CmpKind kind, mlir::Value lhs, mlir::Value rhs, Sign sign = Sign::Signed);
  /// cond ? a : b, elementwise; all three are broadcast together.
  mlir::Value select(mlir::Value cond, mlir::Value a, mlir::Value b);
  /// Converts the elements of `x` to `elementType` (integers of any width,
  /// floats, i1). `sign` says how the integer side is read: the source of
  /// an int->int or int->float cast, the result of a float->int one. To i1
  /// means "!= 0"; from i1, true is 1.
  mlir::Value cast(mlir::Value x, mlir::Type elementType, Sign sign = Sign::Signed);

  //===--- Math (floats) ---------------------------------------------------===//

  mlir::Value math(MathFn fn, mlir::Value x);
  mlir::Value exp(mlir::Value x) { return math(MathFn::Exp, x); }
  mlir::Value log(mlir::Value x) { return math(MathFn::Log, x); }
  mlir::Value sqrt(mlir::Value x) { return math(MathFn::Sqrt, x); }
  mlir::Value abs(mlir::Value x) { return math(MathFn::Abs, x); }
  /// a * b + c with one rounding; all three are broadcast together.
  mlir::Value fma(mlir::Value a, mlir::Value b, mlir::Value c);

  //===--- Dot, reductions, loops -----------------------------------------===//

  /// tt.dot: a[M,K] * b[K,N] + acc[M,N] (or batched 3-D). Without `acc`, a
  /// zero accumulator of f32 (float inputs) or i32 (integer inputs).
  mlir::Value dot(mlir::Value a, mlir::Value b, mlir::Value acc = {},
                  tt::InputPrecision precision = tt::InputPrecision::IEEE);

  /// Reduces `x` along `axis` (negative counts from the end) with a
  /// built-in combine function. A 1-D tensor reduces to a scalar.
  mlir::Value reduce(mlir::Value x, int axis, ReduceKind kind);

  /// Builds the body of a general reduction. It gets the accumulators and
  /// the new elements (scalars, one per input each) and returns the new
  /// accumulators, building ops with this same KernelBuilder.
  using CombineFn = llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::ValueRange accumulators,
                                                                      mlir::ValueRange elements)>;
  /// tt.reduce of the same-shaped tensors `xs` along `axis` with `combine`;
  /// one result per input.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> reduce(mlir::ValueRange xs, int axis,
                                                         CombineFn combine);

  /// Builds a loop body: gets the induction variable and the loop-carried
  /// values, returns the next loop-carried values (one per init).
  using LoopBodyFn =
      llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::Value iv, mlir::ValueRange iterArgs)>;
  /// scf.for from `lower` to `upper` (exclusive) by `step`, all scalars of
  /// one integer type, carrying `inits`; returns the final carried values.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> forLoop(mlir::Value lower, mlir::Value upper,
                                                          mlir::Value step, mlir::ValueRange inits,
                                                          LoopBodyFn body);

  //===--- Plugin ops -----------------------------------------------------===//

  /// Emits the kernel-language op `opName` ("<plugin>.<op>", see
  /// kiln::PluginManager::ops()) through its builder: `operands` are its
  /// tensor and plugin-value operands in order, `constants` its constexprs
  /// by name (those left out take their declared defaults). Fails (with a
  /// diagnostic) for an unknown name, a wrong count, a missing or unknown
  /// constexpr, or a builder that fails or returns the wrong number of
  /// results.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  call(llvm::StringRef opName, mlir::ValueRange operands, mlir::DictionaryAttr constants = {});

  /// Builds scope `scope` (an scf.execute_region whose `kiln.scope` names a
  /// scope op, its constexprs in `kiln.constants`, defaults filled in
  /// here) through the op's scope builder. Fails (with a diagnostic) for an
  /// unknown scope, a bad constexpr, or a builder that fails or leaves the
  /// region in place.
  mlir::LogicalResult buildScope(mlir::Operation *scope);
  /// `constants` with the declared defaults of op `opName`'s constexprs
  /// filled in; fails (with a diagnostic) on an unknown op or a missing or
  /// unknown constexpr.
  mlir::FailureOr<mlir::DictionaryAttr> completeConstants(llvm::StringRef opName,
                                                          mlir::DictionaryAttr constants);

  /// A constexpr as a builder sees it: a JSON bool, integer, number, string
  /// or array of these as BoolAttr, i64 IntegerAttr, f64 FloatAttr,
  /// StringAttr or ArrayAttr; null for anything else.
  mlir::Attribute constantAttr(const llvm::json::Value &value);
  /// The element type a Triton dtype name ("fp16", "int32", "fp8e4nv")
  /// stands for; null for an unknown name.
  mlir::Type dtype(llvm::StringRef name);

  //===--- Finishing ------------------------------------------------------===//

  /// Ends the kernel with tt.return, verifies the module and hands it over.
  /// Returns null if any error was reported or verification fails; the
  /// builder takes no further ops either way.
  /// Only on a named builder: a temporary's owned context would die with
  /// it, leaving the module dangling.
  mlir::OwningOpRef<mlir::ModuleOp> finish() &;

private:
  /// The op named `opName`, or null after a diagnostic listing the loaded ones.
  const KernelOp *lookupOp(llvm::StringRef opName);
  mlir::FailureOr<mlir::DictionaryAttr> completeConstants(const KernelOp &op,
                                                          mlir::DictionaryAttr constants);
  /// Runs a plugin's op or scope builder: fails if it fails or reports an
  /// error, with a diagnostic of its own if the builder gave none.
  mlir::LogicalResult runBuilder(const KernelOp &op,
                                 llvm::function_ref<mlir::LogicalResult()> builder);
  void init(llvm::StringRef name);
  bool usable(mlir::ValueRange operands);
  mlir::Operation *checked(mlir::Operation *op);
  mlir::Value checkedValue(mlir::Operation *op);
  mlir::FailureOr<llvm::SmallVector<int64_t>> commonShape(mlir::ValueRange values);
  mlir::LogicalResult promote(llvm::MutableArrayRef<mlir::Value> values);
  mlir::Value argument(mlir::Type type, llvm::StringRef name, unsigned divisibility);
  mlir::Value binary(llvm::StringRef what, mlir::Value lhs, mlir::Value rhs, bool allowFloat,
                     bool allowInt,
                     llvm::function_ref<mlir::Operation *(mlir::Value, mlir::Value, bool)> make);
  mlir::Value zerosLike(mlir::Type type);

  // Declared first: destroyed last, after the module that lives in it.
  std::unique_ptr<mlir::MLIRContext> ownedContext;
  mlir::MLIRContext *ctx;
  mlir::OpBuilder b;
  mlir::Location currentLoc;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  tt::FuncOp func;
  unsigned errors = 0;
};

} // namespace kiln

#endif

//===- Interpreter.cpp - execution state, control flow, the grid loop -----===//
#include "Exec.h"
#include "Kernels.h"

#include "kiln/Registration.h"
#include "kiln/Support/InputFile.h"
#include "kiln/Support/ParseGuards.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace kiln::interp {

void registerInterpreterDialects(DialectRegistry &registry) {
  // Everything `kiln compile` parses: Triton's TTIR holds llvm.intr.assume.
  kiln::registerKilnDialects(registry);
}

llvm::Expected<OwningOpRef<ModuleOp>> parseKernelFile(llvm::StringRef path,
                                                      MLIRContext &ctx) {
  auto file = readInputFile(path, "kernel file");
  if (!file)
    return file.takeError();
  if (llvm::Error e = checkIRText((*file)->getBuffer(), path))
    return std::move(e);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  std::string diags;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    llvm::raw_string_ostream os(diags);
    const char *sev = d.getSeverity() == DiagnosticSeverity::Error     ? "error"
                      : d.getSeverity() == DiagnosticSeverity::Warning ? "warning"
                                                                       : "note";
    os << formatLocation(d.getLocation()) << ": " << sev << ": " << d << "\n";
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return llvm::createStringError("cannot parse kernel '" + path.str() + "'" +
                                   (diags.empty() ? std::string() : ":\n" + diags));
  return std::move(module);
}

std::string formatLocation(Location loc) {
  if (auto f = dyn_cast<FileLineColLoc>(loc))
    return (f.getFilename().getValue() + ":" + llvm::Twine(f.getLine()) + ":" +
            llvm::Twine(f.getColumn()))
        .str();
  if (auto n = dyn_cast<NameLoc>(loc))
    return formatLocation(n.getChildLoc());
  if (auto c = dyn_cast<CallSiteLoc>(loc)) {
    std::string callee = formatLocation(c.getCallee());
    std::string caller = formatLocation(c.getCaller());
    return callee + " (inlined at " + caller + ")";
  }
  if (auto f = dyn_cast<FusedLoc>(loc))
    for (Location inner : f.getLocations()) {
      std::string s = formatLocation(inner);
      if (s != "<unknown location>")
        return s;
    }
  return "<unknown location>";
}

namespace detail {

ElemKind elemKindOf(Type type) {
  if (auto t = dyn_cast<RankedTensorType>(type))
    type = t.getElementType();
  if (auto k = kindOfType(type))
    return *k;
  // Unreachable from user IR: Exec::runOp rejects such types first.
  llvm::report_fatal_error("interpreter: internal error: unchecked element type");
}

namespace {

std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// The part of `type` the interpreter cannot represent (an element type, a
/// pointee, or the type itself), or null if it can.
Type unsupportedPart(Type type) {
  if (auto d = dyn_cast<kiln::tt::TensorDescType>(type))
    return unsupportedPart(d.getBlockType());
  if (kiln::tt::isTensorPointerType(type))
    return unsupportedPart(cast<kiln::tt::PointerType>(type).getPointeeType());
  if (auto t = dyn_cast<RankedTensorType>(type)) {
    Type e = t.getElementType();
    return kindOfType(e) ? unsupportedPart(e) : e;
  }
  if (!kindOfType(type))
    return type;
  // A scalar pointer's pointee sizes tt.addptr and the loads through it.
  if (auto p = dyn_cast<kiln::tt::PointerType>(type))
    return unsupportedPart(p.getPointeeType());
  return {};
}

/// The most elements one tensor value may hold. Triton caps a block at 2^20
/// elements (TRITON_MAX_TENSOR_NUMEL); 2^24 leaves headroom while keeping a
/// huge shape from exhausting memory or running for hours.
constexpr int64_t kMaxTensorElements = int64_t(1) << 24;

/// The tensor type within `type` (itself, a descriptor's block, a block
/// pointer's pointee) that holds more than kMaxTensorElements, or null.
RankedTensorType oversizedTensor(Type type) {
  if (auto d = dyn_cast<kiln::tt::TensorDescType>(type))
    return oversizedTensor(d.getBlockType());
  if (kiln::tt::isTensorPointerType(type))
    return oversizedTensor(cast<kiln::tt::PointerType>(type).getPointeeType());
  auto t = dyn_cast<RankedTensorType>(type);
  if (!t)
    return {};
  int64_t n = 1;
  for (int64_t d : t.getShape())
    if (d > 0 && (__builtin_mul_overflow(n, d, &n) || n > kMaxTensorElements))
      return t;
  return {};
}

bool isHandleType(Type t) {
  return isa<kiln::tt::TensorDescType>(t) || kiln::tt::isTensorPointerType(t);
}

} // namespace

Shape shapeOf(Type type) {
  if (auto t = dyn_cast<RankedTensorType>(type))
    return Shape(t.getShape().begin(), t.getShape().end());
  return {};
}

Exec::Exec(ModuleOp module, Memory &memory, const RunOptions &opts)
    : mem(memory), opts(opts), module(module),
      printOut(opts.printStream ? *opts.printStream : llvm::outs()) {
  if (opts.timeLimitSeconds > 0)
    deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(opts.timeLimitSeconds));
  registerControlHandlers(handlers_);
  registerArithHandlers(handlers_);
  registerMathHandlers(handlers_);
  registerShapeHandlers(handlers_);
  registerMemoryHandlers(handlers_);
  registerSyncHandlers(handlers_);
  registerReduceHandlers(handlers_);
  registerDotHandlers(handlers_);
  registerDebugHandlers(handlers_, module.getContext());
}

const RtValue &Exec::value(Value v) const {
  auto &frame = frames_.back();
  auto it = frame.find(v);
  // Unreachable from verified IR: definitions dominate their uses.
  if (it == frame.end())
    llvm::report_fatal_error("interpreter: internal error: a value was used before it was computed");
  return it->second;
}

Tensor Exec::tensor(Value v) const {
  const RtValue &x = value(v);
  if (auto *t = std::get_if<Tensor>(&x))
    return *t;
  // Unreachable from user IR: Exec::runOp only lets block pointers and
  // descriptors reach handlers that expect them.
  llvm::report_fatal_error("interpreter: internal error: expected a tensor value");
}

std::string Exec::programString() const {
  return "program (" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) + ", " +
         std::to_string(pid[2]) + ")";
}

LogicalResult Exec::fail(Operation *op, const llvm::Twine &msg) {
  if (error_.empty())
    error_ = formatLocation(op->getLoc()) + ": error: " + op->getName().getStringRef().str() +
             " in " + programString() + ": " + msg.str();
  return failure();
}

LogicalResult Exec::failAt(Operation *op, llvm::ArrayRef<int64_t> shape, int64_t flat,
                           const llvm::Twine &msg) {
  if (shape.empty())
    return fail(op, msg);
  return fail(op, "element " + formatIndex(shape, flat) + ": " + msg);
}

bool Exec::resolve(Operation *op, uint64_t addr, unsigned size, bool isRead,
                   llvm::ArrayRef<int64_t> shape, int64_t flat, unsigned &id,
                   int64_t &offset) {
  Fault fault = mem.locate(addr, size, id, offset);
  if (fault != Fault::None) {
    const char *what = fault == Fault::Misaligned ? "misaligned " : "out-of-bounds ";
    (void)failAt(op, shape, flat,
                 llvm::Twine(what) + (isRead ? "read: " : "write: ") + mem.describe(fault, addr, size));
    return false;
  }
  if (isRead && !mem.isWritten(id, offset, size)) {
    if (!opts.poisonReadIsError) {
      ++poisonReads;
      return true;
    }
    (void)failAt(op, shape, flat, "poisoned read: " + mem.describe(Fault::Poison, addr, size));
    return false;
  }
  return true;
}

Tensor Exec::constant(Operation *op, Attribute attr, Type type) {
  auto it = constants_.find(op);
  if (it != constants_.end())
    return it->second;
  ElemKind kind = elemKindOf(type);
  Shape shape = shapeOf(type);
  Tensor t = Tensor::alloc(kind, shape);
  auto bitsOf = [](Attribute a) -> uint64_t {
    if (auto i = dyn_cast<IntegerAttr>(a))
      return i.getValue().getZExtValue();
    if (auto f = dyn_cast<FloatAttr>(a))
      return f.getValue().bitcastToAPInt().getZExtValue();
    return 0;
  };
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dense.isSplat()) {
      uint64_t bits = isa<FloatType>(dense.getElementType())
                          ? dense.getSplatValue<APFloat>().bitcastToAPInt().getZExtValue()
                          : dense.getSplatValue<APInt>().getZExtValue();
      for (int64_t i = 0; i < t.numel(); ++i)
        t.setBits(i, bits);
    } else if (isa<FloatType>(dense.getElementType())) {
      int64_t i = 0;
      for (const APFloat &v : dense.getValues<APFloat>())
        t.setBits(i++, v.bitcastToAPInt().getZExtValue());
    } else {
      int64_t i = 0;
      for (const APInt &v : dense.getValues<APInt>())
        t.setBits(i++, v.getZExtValue());
    }
  } else {
    t.setBits(0, bitsOf(attr));
  }
  if (kind == ElemKind::I1)
    for (int64_t i = 0; i < t.numel(); ++i)
      t.dataMut<uint8_t>()[i] &= 1;
  constants_[op] = t;
  return t;
}

/// "0.2", "600".
static std::string formatSeconds(double seconds) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%g", seconds);
  return s;
}

LogicalResult Exec::stopRun(Operation *op) {
  std::string limit = opts.maxSteps && steps_ > opts.maxSteps
                          ? "after " + std::to_string(opts.maxSteps) + " steps (--max-steps)"
                          : "after " + formatSeconds(opts.timeLimitSeconds) + " s (--time-limit)";
  // Name the loop that kept it running, when there is one.
  std::string loop;
  for (Operation *p = op->getParentOp(); p && !isa<kiln::tt::FuncOp>(p); p = p->getParentOp())
    if (isa<scf::ForOp, scf::WhileOp>(p)) {
      loop = ", inside the " + p->getName().getStringRef().str() + " at " +
             formatLocation(p->getLoc());
      break;
    }
  return fail(op, "the run was stopped " + limit + loop);
}

LogicalResult Exec::runOp(Operation *op) {
  if (failed(step(op)))
    return failure();
  auto known = checked_.find(op);
  if (known != checked_.end())
    return known->second(*this, op);
  auto it = handlers_.find(op->getName().getTypeID());
  if (it == handlers_.end())
    return fail(op, "this op is not supported by the interpreter");
  // Handlers assume every type they see maps to an ElemKind and that block
  // pointers and descriptors only reach handlers written for them; check
  // that once per op rather than crash inside a handler.
  auto check = [&](Type t) -> LogicalResult {
    if (Type bad = unsupportedPart(t))
      return fail(op, llvm::Twine("unsupported ") +
                          (isa<ShapedType>(bad) ? "type " : "element type ") + typeString(bad) +
                          " in the interpreter");
    if (RankedTensorType big = oversizedTensor(t))
      return fail(op, "tensor type " + typeString(big) + " has more than " +
                          std::to_string(kMaxTensorElements) +
                          " (2^24) elements, the interpreter's limit per tensor");
    if (!it->second.takesHandles && isHandleType(t))
      return fail(op, llvm::Twine(isa<kiln::tt::TensorDescType>(t) ? "tensor descriptor"
                                                                     : "block pointer") +
                          " values (" + typeString(t) +
                          ") are not supported by this op in the interpreter");
    return success();
  };
  for (Type t : op->getOperandTypes())
    if (failed(check(t)))
      return failure();
  for (Type t : op->getResultTypes())
    if (failed(check(t)))
      return failure();
  checked_[op] = it->second.fn;
  return it->second.fn(*this, op);
}

LogicalResult Exec::runBlock(Block &block, llvm::ArrayRef<RtValue> args,
                             llvm::SmallVectorImpl<RtValue> &yielded) {
  for (auto [arg, v] : llvm::zip(block.getArguments(), args))
    set(arg, v);
  for (Operation &op : block.without_terminator())
    if (failed(runOp(&op)))
      return failure();
  Operation *term = block.getTerminator();
  if (failed(step(term)))
    return failure();
  if (isa<cf::BranchOp, cf::CondBranchOp>(term))
    return fail(term, "branches are only supported in function bodies");
  yielded.clear();
  for (Value v : term->getOperands())
    yielded.push_back(value(v));
  return success();
}

LogicalResult Exec::runRegion(Region &region, llvm::ArrayRef<RtValue> args,
                              llvm::SmallVectorImpl<RtValue> &results) {
  Block *block = &region.front();
  llvm::SmallVector<RtValue, 8> blockArgs(args.begin(), args.end());
  while (true) {
    for (auto [arg, v] : llvm::zip(block->getArguments(), blockArgs))
      set(arg, v);
    for (Operation &op : block->without_terminator())
      if (failed(runOp(&op)))
        return failure();
    Operation *term = block->getTerminator();
    if (failed(step(term)))
      return failure();
    if (auto br = dyn_cast<cf::BranchOp>(term)) {
      blockArgs.clear();
      for (Value v : br.getDestOperands())
        blockArgs.push_back(value(v));
      block = br.getDest();
      continue;
    }
    if (auto cbr = dyn_cast<cf::CondBranchOp>(term)) {
      bool taken = tensor(cbr.getCondition()).uintAt(0) != 0;
      blockArgs.clear();
      for (Value v : taken ? cbr.getTrueDestOperands() : cbr.getFalseDestOperands())
        blockArgs.push_back(value(v));
      block = taken ? cbr.getTrueDest() : cbr.getFalseDest();
      continue;
    }
    results.clear();
    for (Value v : term->getOperands())
      results.push_back(value(v));
    return success();
  }
}

LogicalResult Exec::callFunction(kiln::tt::FuncOp func, llvm::ArrayRef<RtValue> args,
                                 llvm::SmallVectorImpl<RtValue> &results) {
  if (func.isExternal())
    return fail(func, "cannot call a function without a body");
  if (frames_.size() > 256)
    return fail(func, "call depth exceeds 256 (unbounded recursion?)");
  pushFrame();
  LogicalResult r = runRegion(func.getBody(), args, results);
  popFrame();
  return r;
}

//===----------------------------------------------------------------------===//
// Control flow and program ids
//===----------------------------------------------------------------------===//

namespace {

void setResults(Exec &ex, Operation *op, llvm::ArrayRef<RtValue> values) {
  for (auto [r, v] : llvm::zip(op->getResults(), values))
    ex.set(r, v);
}

LogicalResult execFor(Exec &ex, Operation *op) {
  auto f = cast<scf::ForOp>(op);
  Tensor lbT = ex.tensor(f.getLowerBound()), ubT = ex.tensor(f.getUpperBound()),
         stepT = ex.tensor(f.getStep());
  ElemKind ivKind = elemKindOf(f.getInductionVar().getType());
  unsigned bits = intBits(ivKind);
  llvm::SmallVector<RtValue, 8> iter, args;
  for (Value v : f.getInitArgs())
    iter.push_back(ex.value(v));
  llvm::SmallVector<RtValue, 8> yielded;
  auto body = [&](int64_t iv) {
    args.clear();
    args.push_back(Tensor::scalarInt(ivKind, iv));
    args.append(iter.begin(), iter.end());
    if (failed(ex.runBlock(*f.getBody(), args, yielded)))
      return failure();
    iter.assign(yielded.begin(), yielded.end());
    return success();
  };
  // The loop stops where the next iv would not fit the iv's bit width: the
  // comparison is done in that width, so a wrapped iv would compare below
  // the bound again and the loop would never end.
  if (f.getUnsignedCmp()) {
    // Bounds are read zero-extended: 0x80000005 : i32 is 2147483653 here.
    uint64_t lb = lbT.uintAt(0), ub = ubT.uintAt(0), step = stepT.uintAt(0);
    uint64_t max = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    if (step == 0)
      return ex.fail(op, "the step must be positive (it is 0)");
    for (uint64_t iv = lb; iv < ub; iv += step) {
      if (failed(body(int64_t(iv))))
        return failure();
      if (step > max - iv)
        break;
    }
  } else {
    int64_t lb = lbT.intAt(0), ub = ubT.intAt(0), step = stepT.intAt(0);
    int64_t max = bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1;
    if (step <= 0)
      return ex.fail(op, "the step must be positive (it is " + llvm::Twine(step) + ")");
    for (int64_t iv = lb; iv < ub;) {
      if (failed(body(iv)))
        return failure();
      if (__builtin_add_overflow(iv, step, &iv) || iv > max)
        break;
    }
  }
  setResults(ex, op, iter);
  return success();
}

LogicalResult execWhile(Exec &ex, Operation *op) {
  auto w = cast<scf::WhileOp>(op);
  llvm::SmallVector<RtValue, 8> cur, before, after;
  for (Value v : w.getInits())
    cur.push_back(ex.value(v));
  while (true) {
    if (failed(ex.runBlock(w.getBefore().front(), cur, before)))
      return failure();
    bool go = std::get<Tensor>(before[0]).uintAt(0) != 0;
    llvm::ArrayRef<RtValue> forwarded(before.begin() + 1, before.end());
    if (!go) {
      setResults(ex, op, forwarded);
      return success();
    }
    if (failed(ex.runBlock(w.getAfter().front(), forwarded, after)))
      return failure();
    cur.assign(after.begin(), after.end());
  }
}

LogicalResult execIf(Exec &ex, Operation *op) {
  auto i = cast<scf::IfOp>(op);
  bool cond = ex.tensor(i.getCondition()).uintAt(0) != 0;
  Region &region = cond ? i.getThenRegion() : i.getElseRegion();
  if (region.empty())
    return success();
  llvm::SmallVector<RtValue, 8> yielded;
  if (failed(ex.runBlock(region.front(), {}, yielded)))
    return failure();
  setResults(ex, op, yielded);
  return success();
}

LogicalResult execExecuteRegion(Exec &ex, Operation *op) {
  auto e = cast<scf::ExecuteRegionOp>(op);
  llvm::SmallVector<RtValue, 8> yielded;
  if (failed(ex.runBlock(e.getRegion().front(), {}, yielded)))
    return failure();
  setResults(ex, op, yielded);
  return success();
}

LogicalResult execIndexSwitch(Exec &ex, Operation *op) {
  auto s = cast<scf::IndexSwitchOp>(op);
  int64_t arg = ex.tensor(s.getArg()).intAt(0);
  Region *region = &s.getDefaultRegion();
  for (auto [c, r] : llvm::zip(s.getCases(), s.getCaseRegions()))
    if (c == arg)
      region = &r;
  llvm::SmallVector<RtValue, 8> yielded;
  if (failed(ex.runBlock(region->front(), {}, yielded)))
    return failure();
  setResults(ex, op, yielded);
  return success();
}

LogicalResult execCall(Exec &ex, Operation *op) {
  auto call = cast<kiln::tt::CallOp>(op);
  auto callee =
      SymbolTable::lookupNearestSymbolFrom<kiln::tt::FuncOp>(op, call.getCalleeAttr());
  if (!callee)
    return ex.fail(op, "no tt.func named '" + call.getCallee() + "'");
  llvm::SmallVector<RtValue, 8> args, results;
  for (Value v : call.getOperands())
    args.push_back(ex.value(v));
  if (failed(ex.callFunction(callee, args, results)))
    return failure();
  setResults(ex, op, results);
  return success();
}

LogicalResult execProgramId(Exec &ex, Operation *op) {
  auto p = cast<kiln::tt::GetProgramIdOp>(op);
  ex.set(p.getResult(), Tensor::scalarInt(ElemKind::I32, ex.pid[int(p.getAxis())]));
  return success();
}

LogicalResult execNumPrograms(Exec &ex, Operation *op) {
  auto p = cast<kiln::tt::GetNumProgramsOp>(op);
  ex.set(p.getResult(), Tensor::scalarInt(ElemKind::I32, ex.grid[int(p.getAxis())]));
  return success();
}

/// ub.poison: any value will do; zeros make runs reproducible.
LogicalResult execPoison(Exec &ex, Operation *op) {
  Type t = op->getResult(0).getType();
  ex.set(op->getResult(0), Tensor::zeros(elemKindOf(t), shapeOf(t)));
  return success();
}

/// gpu.barrier (tl.debug_barrier): a program's ops already run in order.
LogicalResult execBarrier(Exec &, Operation *) { return success(); }

} // namespace

void registerControlHandlers(HandlerMap &m) {
  addHandler<gpu::BarrierOp>(m, execBarrier);
  addHandler<scf::ForOp>(m, execFor, /*takesHandles=*/true);
  addHandler<scf::WhileOp>(m, execWhile, /*takesHandles=*/true);
  addHandler<scf::IfOp>(m, execIf, /*takesHandles=*/true);
  addHandler<scf::ExecuteRegionOp>(m, execExecuteRegion, /*takesHandles=*/true);
  addHandler<scf::IndexSwitchOp>(m, execIndexSwitch, /*takesHandles=*/true);
  addHandler<kiln::tt::CallOp>(m, execCall, /*takesHandles=*/true);
  addHandler<kiln::tt::GetProgramIdOp>(m, execProgramId);
  addHandler<kiln::tt::GetNumProgramsOp>(m, execNumPrograms);
  addHandler<ub::PoisonOp>(m, execPoison);
}

} // namespace detail

//===----------------------------------------------------------------------===//
// The grid loop
//===----------------------------------------------------------------------===//

Interpreter::Interpreter(ModuleOp module) : module_(module) {}
Interpreter::~Interpreter() = default;

llvm::Error Interpreter::run(llvm::StringRef kernel, llvm::ArrayRef<RtValue> args,
                             Memory &memory, const RunOptions &opts) {
  auto func = module_.lookupSymbol<kiln::tt::FuncOp>(kernel);
  if (!func)
    return llvm::createStringError("no tt.func named '" + kernel.str() + "' in the module");
  if (func.isExternal())
    return llvm::createStringError("tt.func '" + kernel.str() + "' has no body");
  if (args.size() != func.getNumArguments())
    return llvm::createStringError("kernel '" + kernel.str() + "' takes " +
                                   std::to_string(func.getNumArguments()) +
                                   " arguments, but " + std::to_string(args.size()) +
                                   " were given");
  for (auto [i, type, arg] : llvm::enumerate(func.getArgumentTypes(), args)) {
    // A wrong kind of value would otherwise surface deep inside an op.
    bool ok;
    if (isa<kiln::tt::TensorDescType>(type))
      ok = std::holds_alternative<TensorDesc>(arg);
    else if (kiln::tt::isTensorPointerType(type))
      ok = std::holds_alternative<BlockPtr>(arg);
    else if (auto *t = std::get_if<Tensor>(&arg))
      ok = kindOfType(getElementTypeOrSelf(type)) == t->kind() &&
           t->shape() == llvm::ArrayRef<int64_t>(detail::shapeOf(type));
    else
      ok = false;
    if (!ok)
      return llvm::createStringError("argument " + std::to_string(i) + " of '" + kernel.str() +
                                     "' does not match its type");
  }
  for (unsigned i = 0; i < 3; ++i)
    if (std::string p = gridSizeProblem(i, opts.grid[i]); !p.empty())
      return llvm::createStringError(p);

  detail::Exec ex(module_, memory, opts);
  ex.grid = opts.grid;
  llvm::SmallVector<RtValue, 4> results;
  for (int64_t z = 0; z < opts.grid[2]; ++z)
    for (int64_t y = 0; y < opts.grid[1]; ++y)
      for (int64_t x = 0; x < opts.grid[0]; ++x) {
        ex.pid = {x, y, z};
        if (failed(ex.callFunction(func, args, results))) {
          poisonReads_ = ex.poisonReads;
          return llvm::createStringError(ex.error());
        }
      }
  poisonReads_ = ex.poisonReads;
  return llvm::Error::success();
}

} // namespace kiln::interp

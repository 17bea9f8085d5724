//===- ExpandKernelOps.cpp - the ttir-expand-kernel-ops pass --------------===//
//
// Plugin ops called from @triton.jit kernels reach kiln in two encodings
// (python/kiln/language says why): elementwise ops as tt.extern_elementwise
// of library "kiln", every other op as a tt.call of a bodiless declaration
// marked `kiln.kernel_op`, its constexprs as JSON in `kiln.constants`.
// Each becomes what its builder emits.
//
// A plugin value that is not a tensor (a shared-memory buffer, a barrier)
// has no type Triton's frontend can spell, so the frontend carries it as a
// `!tt.ptr<i8>` placeholder through loops, branches and inlined calls. Once
// the op making it is expanded, the real type flows forward from it: to
// the loop and branch results and block arguments the value reaches.
//
// A scope (`with <plugin>.<op>(...):`) arrives as two calls of the op in
// one block, marked `kiln.scope` "begin" and "end". The ops between go into
// an scf.execute_region named after the scope, before any call expands;
// once every call has, the scopes are built, outermost first.
//
//===----------------------------------------------------------------------===//
#include "kiln/Frontend/Passes.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Frontend/KernelBuilder.h"
#include "kiln/Plugin/OpRegistry.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Registration.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/JSON.h"

namespace kiln {
#define GEN_PASS_DEF_EXPANDKERNELOPS
#include "kiln/Frontend/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using llvm::Expected;
namespace json = llvm::json;

namespace kiln {
namespace {

bool isPlaceholder(Type type) {
  auto ptr = dyn_cast<tt::PointerType>(type);
  return ptr && ptr.getPointeeType().isInteger(8) && ptr.getAddressSpace() == 1;
}

/// The kernel op a tt.call stands for, or null.
StringAttr kernelOpOf(tt::CallOp call) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<tt::FuncOp>(call, call.getCalleeAttr());
  return callee ? callee->getAttrOfType<StringAttr>(kKernelOpAttr) : nullptr;
}

/// The constexprs of a call, from the JSON object in `kiln.constants`.
FailureOr<DictionaryAttr> constantsOf(tt::CallOp call, StringRef name, KernelBuilder &kb) {
  auto text = call->getAttrOfType<StringAttr>(kConstantsAttr);
  if (!text)
    return DictionaryAttr();
  Expected<json::Value> parsed = json::parse(text.getValue());
  json::Object *object = parsed ? parsed->getAsObject() : nullptr;
  if (!parsed)
    llvm::consumeError(parsed.takeError());
  if (!object)
    return call.emitError() << "'" << name << "' has constexprs that are not a JSON object: "
                            << text;
  NamedAttrList list;
  for (const auto &[key, value] : *object) {
    Attribute attr = kb.constantAttr(value);
    if (!attr)
      return call.emitError() << "'" << name << "' constexpr '" << key.str()
                              << "' is neither a bool, number, string nor list of them";
    list.append(key.str(), attr);
  }
  return list.getDictionary(call.getContext());
}

/// "begin" or "end" for a call entering or leaving a scope; empty otherwise.
StringRef scopeMark(tt::CallOp call) {
  auto mark = call->getAttrOfType<StringAttr>(kScopeAttr);
  return mark ? mark.getValue() : StringRef();
}

/// Moves the ops strictly between `begin` and `end` (calls of scope op
/// `name` in one block) into an scf.execute_region replacing both. An op
/// free of memory effects used after the scope (Triton's CSE may have
/// merged a later copy into it, a sibling task's included) stays before
/// the region, with such ops it is computed from, when nothing else it
/// needs is in the region.
LogicalResult wrapScope(tt::CallOp begin, tt::CallOp end, StringAttr name) {
  auto func = begin->getParentOfType<tt::FuncOp>();
  KernelBuilder kb(func, begin);
  // Complete now: an outer scope's builder reads the scopes nested in it.
  FailureOr<DictionaryAttr> constants = constantsOf(begin, name.getValue(), kb);
  if (succeeded(constants))
    constants = kb.completeConstants(name.getValue(), *constants);
  if (failed(constants))
    return failure();
  OpBuilder b(begin);
  auto scope = scf::ExecuteRegionOp::create(b, begin.getLoc(), TypeRange());
  scope->setAttr(kScopeAttr, name);
  scope->setAttr(kConstantsAttr, *constants);
  Block *body = b.createBlock(&scope.getRegion());
  Block *outer = begin->getBlock();
  body->getOperations().splice(body->end(), outer->getOperations(),
                               std::next(begin->getIterator()), end->getIterator());
  b.setInsertionPointToEnd(body);
  scf::YieldOp::create(b, end.getLoc());
  // Such an op (with those of the block it is computed from) can stand
  // before the region: the region's body always runs, so even a division
  // (effect-free, not speculatable) runs on the same path as before.
  std::function<bool(Operation *)> hoistable = [&](Operation *op) {
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0)
      return false;
    return llvm::all_of(op->getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      if (!scope->isAncestor(v.getParentRegion()->getParentOp()))
        return true;
      return def && def->getBlock() == body && hoistable(def);
    });
  };
  std::function<void(Operation *)> hoist = [&](Operation *op) {
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp(); def && def->getBlock() == body)
        hoist(def);
    op->moveBefore(scope);
  };
  for (Operation &op : llvm::make_early_inc_range(body->without_terminator())) {
    bool usedAfter = llvm::any_of(op.getUsers(),
                                  [&](Operation *user) { return !scope->isAncestor(user); });
    if (usedAfter && hoistable(&op))
      hoist(&op);
  }
  for (Operation &op : body->without_terminator())
    for (OpOperand &use : op.getUses())
      if (!scope->isAncestor(use.getOwner())) {
        InFlightDiagnostic diag = use.getOwner()->emitError()
                                  << "this uses a value made inside a `with "
                                  << name.getValue() << "(...)` block, after it";
        diag.attachNote(op.getLoc()) << "the value is made here";
        return diag;
      }
  begin.erase();
  end.erase();
  return success();
}

/// Gives `value` (a placeholder) the type of the plugin value it carries
/// and follows it through the structured control flow it is carried by.
LogicalResult retype(Value value, Type type, Location origin);

/// `target` must become `type`: it is still a placeholder, or already that.
LogicalResult retypeTied(Value target, Type type, Operation *by, Location origin) {
  if (target.getType() == type)
    return success();
  if (!isPlaceholder(target.getType()))
    return by->emitError() << "carries a plugin value of type " << type << " where it also carries "
                           << target.getType()
                           << " (a loop or branch must carry one kind of plugin value)";
  return retype(target, type, origin);
}

LogicalResult retype(Value value, Type type, Location origin) {
  value.setType(type);
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    unsigned index = use.getOperandNumber();
    LogicalResult done = success();
    if (auto loop = dyn_cast<scf::ForOp>(user)) {
      if (index < loop.getNumControlOperands()) {
        done = user->emitError("a plugin value cannot be a loop bound");
      } else {
        done = retypeTied(loop.getTiedLoopRegionIterArg(&use), type, user, origin);
        if (succeeded(done))
          done = retypeTied(loop.getTiedLoopResult(&use), type, user, origin);
      }
    } else if (auto loop = dyn_cast<scf::WhileOp>(user)) {
      done = retypeTied(loop.getBeforeArguments()[index], type, user, origin);
    } else if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
      auto loop = cast<scf::WhileOp>(condition->getParentOp());
      if (index == 0) {
        done = user->emitError("a plugin value cannot be a loop condition");
      } else {
        done = retypeTied(loop.getAfterArguments()[index - 1], type, user, origin);
        if (succeeded(done))
          done = retypeTied(loop.getResult(index - 1), type, user, origin);
      }
    } else if (isa<scf::YieldOp>(user)) {
      Operation *parent = user->getParentOp();
      if (isa<scf::IfOp, scf::ForOp>(parent))
        done = retypeTied(parent->getResult(index), type, user, origin);
      else if (auto loop = dyn_cast<scf::WhileOp>(parent))
        done = retypeTied(loop.getBeforeArguments()[index], type, user, origin);
      else
        done = user->emitError("a plugin value cannot be yielded by '")
               << parent->getName() << "'";
    } else if (auto call = dyn_cast<tt::CallOp>(user)) {
      if (!kernelOpOf(call))
        done = user->emitError("a plugin value cannot be passed to a function that is not "
                               "inlined (a noinline @triton.jit function)");
    } else if (isa<tt::ReturnOp>(user)) {
      done = user->emitError("a plugin value cannot be returned from a function that is not "
                             "inlined (a noinline @triton.jit function)");
    } else {
      done = user->emitError("'") << user->getName() << "' cannot take a plugin value";
    }
    if (failed(done)) {
      emitRemark(origin, "the plugin value was made here");
      return failure();
    }
  }
  return success();
}

struct ExpandKernelOpsPass : impl::ExpandKernelOpsBase<ExpandKernelOpsPass> {
  // A builder may create ops of any dialect kiln or a plugin has: they must
  // be loaded before passes run (only when a plugin declares ops: every
  // compile runs this pass).
  void getDependentDialects(DialectRegistry &registry) const override {
    if (!PluginManager::get().ops().all().empty())
      registerKilnAndPluginDialects(registry);
  }

  /// Every scope's ops into its region; false after a diagnostic.
  bool structurizeScopes() {
    SmallVector<Block *> blocks;
    getOperation().walk([&](Block *block) { blocks.push_back(block); });
    bool ok = true;
    for (Block *block : blocks) {
      SmallVector<std::pair<tt::CallOp, StringAttr>> open;
      for (Operation &op : llvm::make_early_inc_range(*block)) {
        auto call = dyn_cast<tt::CallOp>(op);
        StringRef mark = call ? scopeMark(call) : StringRef();
        if (mark.empty())
          continue;
        StringAttr name = kernelOpOf(call);
        if (!name) {
          call.emitError("a scope call without its kernel-op declaration");
          return false;
        }
        if (mark == "begin") {
          open.push_back({call, name});
          continue;
        }
        if (mark != "end" || open.empty() || open.back().second != name) {
          call.emitError() << "a `with " << name.getValue()
                           << "(...)` block's end that matches no beginning in this block";
          return false;
        }
        ok &= succeeded(wrapScope(open.back().first, call, name));
        open.pop_back();
      }
      if (!open.empty()) {
        open.back().first.emitError()
            << "a `with " << open.back().second.getValue()
            << "(...)` block that does not end in the block it begins in";
        return false;
      }
    }
    return ok;
  }

  /// Builds every scope, outermost first; false after a diagnostic.
  bool buildScopes() {
    for (;;) {
      Operation *scope = nullptr;
      getOperation().walk<WalkOrder::PreOrder>([&](scf::ExecuteRegionOp op) {
        if (!op->hasAttrOfType<StringAttr>(kScopeAttr))
          return WalkResult::advance();
        scope = op;
        return WalkResult::interrupt();
      });
      if (!scope)
        return true;
      KernelBuilder kb(scope->getParentOfType<tt::FuncOp>(), scope);
      if (failed(kb.buildScope(scope)))
        return false;
    }
  }

  void runOnOperation() override {
    if (!structurizeScopes())
      return signalPassFailure();
    // Program order: a value is made (and retyped) before its users expand.
    SmallVector<Operation *> calls;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto ext = dyn_cast<tt::ExternElementwiseOp>(op); ext && ext.getLibname() == kKernelOpLibrary)
        calls.push_back(op);
      else if (auto call = dyn_cast<tt::CallOp>(op); call && kernelOpOf(call))
        calls.push_back(op);
    });
    bool failedAny = false;
    for (Operation *op : calls) {
      LogicalResult done = isa<tt::CallOp>(op) ? expandCall(cast<tt::CallOp>(op))
                                               : expandElementwise(cast<tt::ExternElementwiseOp>(op));
      failedAny |= failed(done);
    }
    if (failedAny || !buildScopes())
      return signalPassFailure();
    // The declarations are the frontend's encoding only.
    for (auto func : llvm::make_early_inc_range(getOperation().getOps<tt::FuncOp>()))
      if (func->hasAttr(kKernelOpAttr) && func.symbolKnownUseEmpty(getOperation()))
        func.erase();
  }

  LogicalResult expandElementwise(tt::ExternElementwiseOp op) {
    auto func = op->getParentOfType<tt::FuncOp>();
    if (!func)
      return op.emitError("a kernel op must be called inside a tt.func");
    KernelBuilder kb(func, op);
    FailureOr<SmallVector<Value>> results = kb.call(op.getSymbol(), op.getSrcs());
    if (failed(results))
      return failure();
    Value result = results->front();
    if (result.getType() != op.getType())
      return op.emitError() << "kernel op '" << op.getSymbol() << "' built a " << result.getType()
                            << " where the kernel expects " << op.getType()
                            << " (its declared result element type does not match its builder)";
    op.replaceAllUsesWith(result);
    op.erase();
    return success();
  }

  LogicalResult expandCall(tt::CallOp call) {
    StringRef name = kernelOpOf(call).getValue();
    auto func = call->getParentOfType<tt::FuncOp>();
    if (!func)
      return call.emitError("a kernel op must be called inside a tt.func");
    const KernelOp *decl = PluginManager::get().ops().lookup(name);
    // An unknown op: KernelBuilder::call says which are loaded.
    KernelBuilder kb(func, call);
    FailureOr<DictionaryAttr> constants = constantsOf(call, name, kb);
    if (failed(constants))
      return failure();
    // A value operand still a placeholder was not made by a plugin op.
    if (decl) {
      size_t fixed = 0;
      for (const KernelOpOperand &operand : decl->operands)
        fixed += operand.kind != "constexpr" && operand.kind != "tensors";
      size_t position = 0;
      for (const KernelOpOperand &operand : decl->operands) {
        if (operand.kind == "constexpr")
          continue;
        if (operand.kind == "tensors") {
          position += call.getNumOperands() > fixed ? call.getNumOperands() - fixed : 0;
          continue;
        }
        if (position < call.getNumOperands() && operand.kind != "tensor" &&
            operand.kind != "descriptor" && isPlaceholder(call.getOperand(position).getType()))
          return call.emitError() << "operand '" << operand.name << "' of '" << name
                                  << "' is not a value a plugin op made";
        ++position;
      }
    }
    FailureOr<SmallVector<Value>> results = kb.call(name, call.getOperands(), *constants);
    if (failed(results))
      return failure();
    if (results->size() != call.getNumResults())
      return call.emitError() << "'" << name << "' built " << results->size()
                              << " result(s) where the kernel expects " << call.getNumResults();
    for (auto [expected, built] : llvm::zip_equal(call.getResults(), *results)) {
      if (expected.getType() == built.getType()) {
        expected.replaceAllUsesWith(built);
        continue;
      }
      if (!isPlaceholder(expected.getType()))
        return call.emitError() << "kernel op '" << name << "' built a " << built.getType()
                                << " where the kernel expects " << expected.getType()
                                << " (its declared result type does not match its builder)";
      if (failed(retype(expected, built.getType(), call.getLoc())))
        return failure();
      expected.replaceAllUsesWith(built);
    }
    call.erase();
    return success();
  }
};

} // namespace
} // namespace kiln

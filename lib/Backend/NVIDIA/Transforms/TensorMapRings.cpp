//===- TensorMapRings.cpp - where in-loop tensor maps are written ---------===//
//
// A tensor map made inside a loop is rewritten on every pass that makes it,
// while TMA copies issued from an earlier pass with the previous map may
// still be reading it (the pipeliner keeps copies of up to num_stages - 1
// iterations in flight, a loop's TMA stores stay in flight across passes).
// Such maps get a ring in global scratch and a counter that the enclosing
// loops carry, so that a slot is rewritten only once no copy can use it.
//
// The clones the pipeliner makes of one make (marked by it) share a ring
// of num_stages maps, as Triton's do: the prologue's clones and the loop's
// make at most one map an iteration between them, and a copy issued with
// a map is waited for num_stages - 1 iterations later. Any other make in
// a loop gets a ring of num_stages + 1 of its own (its maps may serve TMA
// stores still in flight one pass later).
//
// A counter starts at slot 0 before the outermost scf.for it is carried
// through (scf.for and scf.if alone): no copy kiln issues outlives that
// loop (the pipeliner predicates its last copies off and waits for them, a
// loop's stores are waited for after it, and other loops' copies complete
// in their pass). A loop inside another that hands a descriptor out of it
// starts after a wait for every TMA store, so that a store after it (in
// the outer loop) no longer reads a map when the inner loop's next pass
// rewrites it.
//
//===----------------------------------------------------------------------===//
#include "TensorMapRings.h"
#include "LoopCounters.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace kiln;

namespace {

/// The scf.for and scf.if ops around `block`, outermost first, from the
/// outermost scf.for on (an scf.if above every loop runs once per kernel,
/// or per pass of a loop the chain does not reach); empty when no scf.for
/// encloses the block directly through such ops.
SmallVector<Operation *> loopChain(Block *block) {
  SmallVector<Operation *> chain;
  for (Operation *op = block->getParentOp(); op && isa<scf::ForOp, scf::IfOp>(op);
       op = op->getParentOp())
    chain.push_back(op);
  while (!chain.empty() && !isa<scf::ForOp>(chain.back()))
    chain.pop_back();
  std::reverse(chain.begin(), chain.end());
  return chain;
}

/// `op` with one more i32 result: the branch holding `target` yields
/// `fromTarget`, the other `outer`. Returns that result.
Value addIfResult(scf::IfOp op, Region *target, Value fromTarget, Value outer) {
  bool inThen = op.getThenRegion().isAncestor(target);
  OpBuilder b(op);
  SmallVector<Type> types(op.getResultTypes());
  types.push_back(b.getI32Type());
  auto grown = scf::IfOp::create(b, op.getLoc(), types, op.getCondition(),
                                 /*withElseRegion=*/false);
  grown.getThenRegion().takeBody(op.getThenRegion());
  if (op.getElseRegion().empty()) {
    Block *block = b.createBlock(&grown.getElseRegion());
    b.setInsertionPointToEnd(block);
    scf::YieldOp::create(b, op.getLoc(), ValueRange());
  } else {
    grown.getElseRegion().takeBody(op.getElseRegion());
  }
  for (Region *region : {&grown.getThenRegion(), &grown.getElseRegion()}) {
    auto yield = cast<scf::YieldOp>(region->front().getTerminator());
    bool holds = (region == &grown.getThenRegion()) == inThen;
    yield->insertOperands(yield->getNumOperands(), holds ? fromTarget : outer);
  }
  op.replaceAllUsesWith(grown.getResults().drop_back());
  op.erase();
  return grown.getResults().back();
}

/// `loop` with one more i32 iter_arg starting at `init`; `inside` gets
/// the body's argument and the new body, and returns what the loop
/// yields. Returns the loop's new result.
Value addLoopCounter(scf::ForOp loop, Value init, function_ref<Value(Value, Block *)> inside) {
  scf::ForOp grown = nvidia::addIterArg(loop, init);
  Value next = inside(grown.getRegionIterArgs().back(), grown.getBody());
  auto yield = cast<scf::YieldOp>(grown.getBody()->getTerminator());
  yield->setOperand(yield->getNumOperands() - 1, next);
  return grown.getResults().back();
}

/// The pointer to counter's slot of a ring of tensor maps, before `make`.
Value ringSlot(tt::MakeTensorDescOp make, Value ring, Value counter) {
  OpBuilder b(make);
  Location loc = make.getLoc();
  Value offset = arith::MulIOp::create(
      b, loc, counter, arith::ConstantIntOp::create(b, loc, ttng::kTensorMapBytes, 32));
  return tt::AddPtrOp::create(b, loc, ring.getType(), ring, offset);
}

/// `counter` + 1 modulo `slots`, at `b`'s insertion point.
Value stepCounter(OpBuilder &b, Location loc, Value counter, unsigned slots) {
  Value next = arith::AddIOp::create(b, loc, counter, arith::ConstantIntOp::create(b, loc, 1, 32));
  Value wrapped = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next,
                                        arith::ConstantIntOp::create(b, loc, slots, 32));
  return arith::SelectOp::create(b, loc, wrapped, arith::ConstantIntOp::create(b, loc, 0, 32),
                                 next);
}

/// Carries a counter in [0, slots) from before chain[0] down to `block`
/// and back: `use` gets its value in `block`, which then steps it. Returns
/// the counter's value after chain[0].
Value threadCounter(ArrayRef<Operation *> chain, Block *block, Value counter, unsigned slots,
                    function_ref<void(Value)> use) {
  if (chain.empty()) {
    use(counter);
    OpBuilder b(block->getTerminator());
    return stepCounter(b, block->getParentOp()->getLoc(), counter, slots);
  }
  Operation *at = chain.front();
  if (auto loop = dyn_cast<scf::ForOp>(at)) {
    // The loop's body block is merged into the new loop's.
    bool isBody = block == loop.getBody();
    return addLoopCounter(loop, counter, [&](Value arg, Block *body) {
      return threadCounter(chain.drop_front(), isBody ? body : block, arg, slots, use);
    });
  }
  Region *target = chain.size() > 1 ? chain[1]->getParentRegion() : block->getParent();
  Value fromTarget = threadCounter(chain.drop_front(), block, counter, slots, use);
  return addIfResult(cast<scf::IfOp>(at), target, fromTarget, counter);
}

/// One ring of `slots` maps for the clones of one marked make, with one
/// counter carried through them in program order; false (and nothing
/// changed) unless the clones lie in distinct ops of one block, each
/// through scf.for and scf.if alone, one at least in a loop.
bool shareRing(ArrayRef<tt::MakeTensorDescOp> clones, unsigned slots,
               DenseMap<Operation *, Value> &places) {
  // The innermost block around every clone.
  auto holds = [](Block *outer, Operation *op) {
    return outer->getParent()->isAncestor(op->getParentRegion());
  };
  Block *common = clones.front()->getBlock();
  while (common && !llvm::all_of(clones, [&](tt::MakeTensorDescOp c) { return holds(common, c); }))
    common = common->getParentOp() ? common->getParentOp()->getBlock() : nullptr;
  if (!common)
    return false;
  // Up to the block of the outermost scf.for around them (through scf.for
  // and scf.if), as for any ring: the counter must not start again on
  // each pass of a loop, whose copies may still run (a descriptor carried
  // out of an inner loop may serve a store of the loop around it).
  Operation *outermost = nullptr;
  for (Operation *op = common->getParentOp(); isa_and_nonnull<scf::ForOp, scf::IfOp>(op);
       op = op->getParentOp())
    if (isa<scf::ForOp>(op))
      outermost = op;
  if (outermost)
    common = outermost->getBlock();
  bool inLoop = llvm::any_of(clones, [&](tt::MakeTensorDescOp c) {
    for (Operation *op = c; op->getBlock() != common;) {
      op = op->getParentOp();
      if (isa<scf::ForOp>(op))
        return true;
    }
    return false;
  });
  if (!inLoop)
    return false;
  struct Clone {
    tt::MakeTensorDescOp make;
    Operation *top; ///< its ancestor in `common`, or itself
    SmallVector<Operation *> chain; ///< the ops from `top` down, outermost first
  };
  SmallVector<Clone> order;
  for (tt::MakeTensorDescOp make : clones) {
    Clone c{make, make, {}};
    for (Operation *op = make->getParentOp(); c.top->getBlock() != common;
         op = op->getParentOp()) {
      if (!isa<scf::ForOp, scf::IfOp>(op))
        return false;
      c.chain.insert(c.chain.begin(), op);
      c.top = op;
    }
    if (llvm::any_of(order, [&](const Clone &o) { return o.top == c.top; }))
      return false;
    order.push_back(std::move(c));
  }
  llvm::sort(order, [](const Clone &a, const Clone &b) { return a.top->isBeforeInBlock(b.top); });
  OpBuilder outside(order.front().top);
  Location loc = order.front().make.getLoc();
  auto bytePtr = tt::PointerType::get(IntegerType::get(loc.getContext(), 8), 1);
  Value ring = ttg::GlobalScratchAllocOp::create(outside, loc, bytePtr,
                                                 int32_t(slots * ttng::kTensorMapBytes),
                                                 int32_t(ttng::kTensorMapBytes));
  Value counter = arith::ConstantIntOp::create(outside, loc, 0, 32);
  for (Clone &c : order) {
    auto use = [&](Value at) { places[c.make] = ringSlot(c.make, ring, at); };
    if (c.chain.empty()) {
      use(counter);
      OpBuilder after(c.make->getBlock(), std::next(c.make->getIterator()));
      counter = stepCounter(after, c.make.getLoc(), counter, slots);
      continue;
    }
    counter = threadCounter(c.chain, c.make->getBlock(), counter, slots, use);
  }
  return true;
}

/// The descriptor values something reads: used by an op other than the
/// scf.yield of an scf.for or scf.if (or an scf.for's init), or carried
/// by such a yield, loop or conditional into a value read.
DenseSet<Value> readDescriptors(ModuleOp module) {
  DenseSet<Value> live;
  SmallVector<Value> work;
  auto mark = [&](Value v) {
    if (isa<tt::TensorDescType>(v.getType()) && live.insert(v).second)
      work.push_back(v);
  };
  module.walk([&](Operation *op) {
    if (isa<scf::YieldOp>(op) && isa<scf::ForOp, scf::IfOp>(op->getParentOp()))
      return;
    // An scf.for's inits are read as its iteration's values are.
    unsigned firstInit = isa<scf::ForOp>(op) ? 3 : op->getNumOperands();
    for (OpOperand &use : op->getOpOperands())
      if (use.getOperandNumber() < firstInit)
        mark(use.get());
  });
  auto markLoopSlot = [&](scf::ForOp loop, unsigned k) {
    mark(loop.getInitArgs()[k]);
    mark(loop.getYieldedValues()[k]);
  };
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto result = dyn_cast<OpResult>(v)) {
      unsigned k = result.getResultNumber();
      if (auto branch = dyn_cast<scf::IfOp>(result.getOwner())) {
        mark(branch.thenYield().getOperand(k));
        if (!branch.getElseRegion().empty())
          mark(branch.elseYield().getOperand(k));
      } else if (auto loop = dyn_cast<scf::ForOp>(result.getOwner())) {
        markLoopSlot(loop, k);
      }
    } else if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
          loop && arg.getArgNumber() > 0)
        markLoopSlot(loop, arg.getArgNumber() - 1);
    }
  }
  return live;
}

/// Drops the iter_args of `loop` whose value and result nobody reads (in
/// `live`) and whose result is unused; their other uses (yields of dead
/// values) take the initial value, which dominates them.
bool dropDeadIterArgs(scf::ForOp loop, const DenseSet<Value> &live) {
  llvm::BitVector dead(loop.getNumRegionIterArgs());
  for (auto [k, arg] : llvm::enumerate(loop.getRegionIterArgs()))
    if (isa<tt::TensorDescType>(arg.getType()) && !live.contains(arg) &&
        !live.contains(loop.getResult(k)) && loop.getResult(k).use_empty())
      dead.set(k);
  if (dead.none())
    return false;
  SmallVector<Value> inits;
  for (auto [k, init] : llvm::enumerate(loop.getInitArgs()))
    if (!dead.test(k))
      inits.push_back(init);
  OpBuilder b(loop);
  auto shrunk = scf::ForOp::create(b, loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
                                   loop.getStep(), inits);
  shrunk->setAttrs(loop->getAttrs());
  shrunk.getRegion().takeBody(loop.getRegion());
  Block *body = shrunk.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  llvm::BitVector deadArgs(body->getNumArguments());
  for (unsigned k : dead.set_bits()) {
    body->getArgument(k + 1).replaceAllUsesWith(loop.getInitArgs()[k]);
    deadArgs.set(k + 1);
  }
  yield->eraseOperands(dead);
  body->eraseArguments(deadArgs);
  unsigned next = 0;
  for (auto [k, result] : llvm::enumerate(loop.getResults()))
    if (!dead.test(k))
      result.replaceAllUsesWith(shrunk.getResult(next++));
  loop.erase();
  return true;
}

/// Drops the results of `branch` nobody reads and nothing uses.
bool dropDeadResults(scf::IfOp branch, const DenseSet<Value> &live) {
  llvm::BitVector dead(branch.getNumResults());
  for (OpResult result : branch.getResults())
    if (isa<tt::TensorDescType>(result.getType()) && !live.contains(result) && result.use_empty())
      dead.set(result.getResultNumber());
  if (dead.none())
    return false;
  SmallVector<Type> types;
  for (OpResult result : branch.getResults())
    if (!dead.test(result.getResultNumber()))
      types.push_back(result.getType());
  OpBuilder b(branch);
  auto shrunk = scf::IfOp::create(b, branch.getLoc(), types, branch.getCondition(),
                                  /*withElseRegion=*/false);
  shrunk->setAttrs(branch->getAttrs());
  shrunk.getThenRegion().takeBody(branch.getThenRegion());
  shrunk.getElseRegion().takeBody(branch.getElseRegion());
  for (Region *region : {&shrunk.getThenRegion(), &shrunk.getElseRegion()})
    if (!region->empty())
      region->front().getTerminator()->eraseOperands(dead);
  unsigned next = 0;
  for (OpResult result : branch.getResults())
    if (!dead.test(result.getResultNumber()))
      result.replaceAllUsesWith(shrunk.getResult(next++));
  branch.erase();
  return true;
}

/// Erases the descriptors only carried around (see the header), then the
/// makes left unused. A value is dropped once its last use is (outer ops
/// first, until nothing changes: a prologue's conditional feeds the loop
/// after it); the values of the ops rebuilt are not in `live`, but their
/// unused results are dead all the same.
void eraseCarriedOnlyDescriptors(ModuleOp module) {
  DenseSet<Value> live = readDescriptors(module);
  SmallVector<tt::MakeTensorDescOp> used;
  module.walk([&](tt::MakeTensorDescOp make) {
    if (!make->use_empty() && !live.contains(make.getResult()))
      used.push_back(make);
  });
  for (bool changed = true; changed;) {
    changed = false;
    SmallVector<Operation *> ops;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<scf::ForOp, scf::IfOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto loop = dyn_cast<scf::ForOp>(op))
        changed |= dropDeadIterArgs(loop, live);
      else
        changed |= dropDeadResults(cast<scf::IfOp>(op), live);
    }
  }
  // The makes only dropped values used (an unused one is still lowered,
  // and checked).
  for (tt::MakeTensorDescOp make : used)
    if (make->use_empty())
      make.erase();
}

/// A loop that hands a descriptor made in it to the loop around it (its
/// result read after it, by a TMA store say, waited for only in the outer
/// loop's next pass) starts only once every TMA store has completed, so
/// that its maps are not rewritten under a store still in flight.
void waitForStoresBeforeEscapingLoops(ModuleOp module) {
  module.walk([](scf::ForOp loop) {
    if (!loop->getParentOfType<scf::ForOp>())
      return;
    bool escapes = llvm::any_of(loop.getResults(), [](Value result) {
      return isa<tt::TensorDescType>(result.getType()) && !result.use_empty();
    });
    if (!escapes || isa_and_nonnull<ttng::TMAStoreWaitOp>(loop->getPrevNode()))
      return;
    bool makes = loop.getBody()
                     ->walk([](tt::MakeTensorDescOp) { return WalkResult::interrupt(); })
                     .wasInterrupted();
    if (!makes)
      return;
    OpBuilder b(loop);
    ttng::TMAStoreWaitOp::create(b, loop.getLoc(), 0);
  });
}
} // namespace

DenseMap<Operation *, Value> kiln::nvidia::placeTensorMapsInLoops(ModuleOp module,
                                                                  unsigned numStages) {
  eraseCarriedOnlyDescriptors(module);
  waitForStoresBeforeEscapingLoops(module);
  // Stages as the pipeliner took them: the option, or a loop's own.
  int64_t stages = numStages;
  module.walk([&](scf::ForOp loop) {
    if (auto attr = loop->getAttrOfType<IntegerAttr>("tt.num_stages"))
      stages = std::max(stages, attr.getInt());
  });
  unsigned slots = unsigned(std::clamp<int64_t>(stages, 1, 64));

  llvm::MapVector<Attribute, SmallVector<tt::MakeTensorDescOp>> byMark;
  llvm::MapVector<Block *, SmallVector<tt::MakeTensorDescOp>> byBlock;
  module.walk([&](tt::MakeTensorDescOp make) {
    if (Attribute mark = make->getAttr(kTensorMapRingAttr))
      byMark[mark].push_back(make);
    else
      byBlock[make->getBlock()].push_back(make);
  });
  DenseMap<Operation *, Value> places;
  // The other makes in loops: each its own ring of one more slot, one
  // counter per block (a marked make that shares no ring, its own).
  SmallVector<SmallVector<tt::MakeTensorDescOp>> groups;
  for (auto &entry : byMark)
    if (!shareRing(entry.second, slots, places))
      for (tt::MakeTensorDescOp make : entry.second)
        groups.push_back({make});
  for (auto &entry : byBlock)
    groups.push_back(std::move(entry.second));
  auto bytePtr = tt::PointerType::get(IntegerType::get(module.getContext(), 8), 1);
  for (SmallVector<tt::MakeTensorDescOp> &makes : groups) {
    // Asked now: an earlier group's rewrite may have moved these ops into
    // a new loop body (the block they were found in is then gone).
    Block *block = makes.front()->getBlock();
    SmallVector<Operation *> chain = loopChain(block);
    if (chain.empty())
      continue;
    OpBuilder outside(chain.front());
    Location loc = chain.front()->getLoc();
    SmallVector<Value> rings;
    for (tt::MakeTensorDescOp make : makes)
      rings.push_back(ttg::GlobalScratchAllocOp::create(
          outside, make.getLoc(), bytePtr, int32_t((slots + 1) * ttng::kTensorMapBytes),
          int32_t(ttng::kTensorMapBytes)));
    Value zero = arith::ConstantIntOp::create(outside, loc, 0, 32);
    threadCounter(chain, block, zero, slots + 1, [&](Value counter) {
      for (auto [make, ring] : llvm::zip(makes, rings))
        places[make] = ringSlot(make, ring, counter);
    });
  }
  return places;
}

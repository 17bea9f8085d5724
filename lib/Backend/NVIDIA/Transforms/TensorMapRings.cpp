//===- TensorMapRings.cpp - where in-loop tensor maps are written ---------===//
//
// A tensor map made inside a loop is rewritten on every pass that makes it,
// while TMA copies issued from an earlier pass with the previous map may
// still be reading it (the pipeliner keeps copies of up to num_stages - 1
// iterations in flight, a loop's TMA stores stay in flight across passes).
// Such maps get a ring of num_stages + 1 slots in global scratch, as
// Triton's do, and a counter that the enclosing loops carry: a slot is
// rewritten only after num_stages later maps, once no copy can use it.
// The counter is carried from the outermost scf.for reached through
// scf.for and scf.if alone: no copy kiln issues outlives that loop (the
// pipeliner predicates its last copies off, a loop's stores are waited
// for after it, and other loops' copies complete in their pass), so the
// ring may start again at slot 0 each time that loop starts.
//
//===----------------------------------------------------------------------===//
#include "TensorMapRings.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
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
  IRRewriter rewriter(loop.getContext());
  auto grown = cast<scf::ForOp>(
      loop.replaceWithAdditionalYields(rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
                                       [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
                                         return SmallVector<Value>{args.front()};
                                       })
          ->getOperation());
  Value next = inside(grown.getRegionIterArgs().back(), grown.getBody());
  auto yield = cast<scf::YieldOp>(grown.getBody()->getTerminator());
  yield->setOperand(yield->getNumOperands() - 1, next);
  return grown.getResults().back();
}

/// Carries a counter in [0, slots) from before chain[0] down to `block`
/// and back: `use` gets its value in `block`, which then steps it. Returns
/// the counter's value after chain[0].
Value threadCounter(ArrayRef<Operation *> chain, Block *block, Value counter, unsigned slots,
                    function_ref<void(Value)> use) {
  if (chain.empty()) {
    use(counter);
    OpBuilder b(block->getTerminator());
    Location loc = block->getParentOp()->getLoc();
    Value next = arith::AddIOp::create(b, loc, counter, arith::ConstantIntOp::create(b, loc, 1, 32));
    Value wrapped = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next,
                                          arith::ConstantIntOp::create(b, loc, slots, 32));
    return arith::SelectOp::create(b, loc, wrapped, arith::ConstantIntOp::create(b, loc, 0, 32),
                                   next);
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

} // namespace

DenseMap<Operation *, Value> kiln::nvidia::placeTensorMapsInLoops(ModuleOp module,
                                                                  unsigned numStages) {
  // Stages as the pipeliner took them: the option, or a loop's own.
  int64_t stages = numStages;
  module.walk([&](scf::ForOp loop) {
    if (auto attr = loop->getAttrOfType<IntegerAttr>("tt.num_stages"))
      stages = std::max(stages, attr.getInt());
  });
  unsigned slots = unsigned(std::clamp<int64_t>(stages, 1, 64)) + 1;

  llvm::MapVector<Block *, SmallVector<tt::MakeTensorDescOp>> byBlock;
  module.walk([&](tt::MakeTensorDescOp make) { byBlock[make->getBlock()].push_back(make); });
  DenseMap<Operation *, Value> places;
  auto bytePtr = tt::PointerType::get(IntegerType::get(module.getContext(), 8), 1);
  for (auto &entry : byBlock) {
    SmallVector<tt::MakeTensorDescOp> &makes = entry.second;
    // Asked now: an earlier group's rewrite may have moved these ops into
    // a new loop body (the key's block is then gone).
    Block *block = makes.front()->getBlock();
    SmallVector<Operation *> chain = loopChain(block);
    if (chain.empty())
      continue;
    // Every map of the block steps through its own ring with one counter.
    OpBuilder outside(chain.front());
    Location loc = chain.front()->getLoc();
    SmallVector<Value> rings;
    for (tt::MakeTensorDescOp make : makes)
      rings.push_back(ttg::GlobalScratchAllocOp::create(
          outside, make.getLoc(), bytePtr, int32_t(slots * ttng::kTensorMapBytes),
          int32_t(ttng::kTensorMapBytes)));
    Value zero = arith::ConstantIntOp::create(outside, loc, 0, 32);
    threadCounter(chain, block, zero, slots, [&](Value counter) {
      for (auto [make, ring] : llvm::zip(makes, rings)) {
        OpBuilder b(make);
        Value offset = arith::MulIOp::create(
            b, make.getLoc(), counter,
            arith::ConstantIntOp::create(b, make.getLoc(), ttng::kTensorMapBytes, 32));
        places[make] = tt::AddPtrOp::create(b, make.getLoc(), bytePtr, ring, offset);
      }
    });
  }
  return places;
}

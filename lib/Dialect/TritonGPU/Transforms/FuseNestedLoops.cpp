//===- FuseNestedLoops.cpp - the ttgir-fuse-nested-loops pass -------------===//
//
// Flattens a loop marked `tt.flatten` (Triton's tl.range(..., flatten=True))
// and the one loop nested in it into a single loop over both iteration
// spaces, so that the pipeliner streams the loads of the next outer
// iteration (a persistent kernel's next tile) while the current one ends,
// as Triton 3.6's tritongpu-fuse-nested-loops does.
//
//   for i in [lb, ub, s) iter_args(o) {
//     p = P(i, o)                         P has no memory effects
//     r = for j in [lb2, ub2, s2) iter_args(x = init(p)) { B(j, x) }
//     yield E(i, o, p, r)
//   }
//
// becomes, where both trip counts T and T2 are positive (otherwise the nest
// runs with the inner loop, which would not iterate, replaced by its inits):
//
//   p0 = P(lb, o0)
//   for t in [0, T * T2) iter_args(o, x = init(p0), i = lb, k = 0, p = p0) {
//     first = k == 0
//     p' = if (first && t != 0) { P(i, o) } else { p }
//     x' = first ? init(p') : x
//     x'' = B(lb2 + k * s2, x')
//     last = k == T2 - 1
//     o' = if (last) { E(i, o, p', x'') } else { o }
//     yield o', x'', last ? i + s : i, last ? 0 : k + 1, p'
//   }
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ttgir-fuse-nested-loops"

namespace kiln::ttg {
#define GEN_PASS_DEF_FUSENESTEDLOOPS
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace kiln::ttg

using namespace mlir;
using namespace kiln;

namespace {

/// The loop nested in `outer` that it can be fused with, if any: the only
/// loop of its body, with bounds defined outside `outer`, after ops without
/// memory effects, with induction variables of at most 32 bits (so that
/// the fused trip count fits 64).
scf::ForOp fusableInner(scf::ForOp outer) {
  auto reject = [&](const char *why) {
    LLVM_DEBUG(llvm::dbgs() << "ttgir-fuse-nested-loops: " << outer.getLoc()
                            << " not fused: " << why << "\n");
    return scf::ForOp();
  };
  scf::ForOp inner;
  for (Operation &op : outer.getBody()->without_terminator()) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (inner)
        return reject("more than one nested loop");
      inner = loop;
      continue;
    }
    if (!inner && !isMemoryEffectFree(&op))
      return reject("an op before the nested loop has memory effects");
    if (!inner && op.walk([](scf::ForOp) { return WalkResult::interrupt(); }).wasInterrupted())
      return reject("a loop nested deeper before the nested loop");
  }
  if (!inner)
    return reject("no nested loop");
  for (Value bound : {inner.getLowerBound(), inner.getUpperBound(), inner.getStep()})
    if (!outer.isDefinedOutsideOfLoop(bound))
      return reject("the nested loop's bounds change with the outer loop");
  for (scf::ForOp loop : {outer, inner}) {
    auto type = dyn_cast<IntegerType>(loop.getInductionVar().getType());
    if (!type || type.getWidth() > 32)
      return reject("an induction variable that is not an integer of at most 32 bits");
  }
  return inner;
}

class NestFuser {
public:
  NestFuser(scf::ForOp outer, scf::ForOp inner)
      : outer(outer), inner(inner), loc(outer.getLoc()), b(outer), constants(outer) {}
  void run();

private:
  Value i64(Value v, bool isUnsigned) {
    if (isUnsigned)
      return b.createOrFold<arith::ExtUIOp>(loc, b.getI64Type(), v);
    return b.createOrFold<arith::ExtSIOp>(loc, b.getI64Type(), v);
  }
  /// An scf.if whose then block the caller fills and terminates; the
  /// else block (none without results) yields `otherwise`.
  scf::IfOp createIf(TypeRange types, Value cond, ValueRange otherwise) {
    auto op = scf::IfOp::create(b, loc, types, cond, /*withElse=*/!types.empty());
    op.thenBlock()->clear();
    if (!types.empty()) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(op.elseBlock());
      scf::YieldOp::create(b, loc, otherwise);
    }
    return op;
  }
  /// An i64 constant, made once before the nest.
  Value constI64(int64_t v) {
    Value &cached = constantCache[v];
    if (!cached)
      cached = arith::ConstantIntOp::create(constants, loc, v, 64);
    return cached;
  }
  /// max(0, ceil((ub - lb) / step)) of `loop`, as i64.
  Value tripCount(scf::ForOp loop);
  /// Clones the ops of `outer` before the nested loop through `map`.
  void cloneProlog(IRMapping &map) {
    for (Operation &op : outer.getBody()->without_terminator()) {
      if (&op == inner.getOperation())
        return;
      b.clone(op, map);
    }
  }
  /// Clones the ops of `outer` after the nested loop through `map`, and
  /// returns what its yield yields.
  SmallVector<Value> cloneEpilog(IRMapping &map) {
    for (Operation *op = inner->getNextNode(); op != outer.getBody()->getTerminator();
         op = op->getNextNode())
      b.clone(*op, map);
    SmallVector<Value> yielded;
    for (Value v : outer.getBody()->getTerminator()->getOperands())
      yielded.push_back(map.lookupOrDefault(v));
    return yielded;
  }
  /// The outer loop as it is, with the nested loop replaced by its inits:
  /// what runs when either loop would not iterate.
  scf::ForOp cloneWithoutInner();
  scf::ForOp buildFused(Value total, Value innerTrips);

  scf::ForOp outer, inner;
  Location loc;
  OpBuilder b, constants;
  DenseMap<int64_t, Value> constantCache;
  /// The results of the ops before the nested loop that are read after
  /// them (by the nested loop, its inits, the ops after it).
  SmallVector<Value> prologValues;
};

Value NestFuser::tripCount(scf::ForOp loop) {
  bool isUnsigned = loop.getUnsignedCmp();
  Value lb = i64(loop.getLowerBound(), isUnsigned);
  Value ub = i64(loop.getUpperBound(), isUnsigned);
  Value step = i64(loop.getStep(), isUnsigned);
  // Both bounds come from at most 32 bits: ub - lb does not overflow.
  // Folded as built, so that a constant trip count is seen as one.
  Value span = b.createOrFold<arith::SubIOp>(loc, ub, lb);
  Value stepLess1 = b.createOrFold<arith::SubIOp>(loc, step, constI64(1));
  Value rounded = b.createOrFold<arith::AddIOp>(loc, span, stepLess1);
  Value count = b.createOrFold<arith::DivUIOp>(loc, rounded, step);
  Value any = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, span, constI64(0));
  return b.createOrFold<arith::SelectOp>(loc, any, count, constI64(0));
}

scf::ForOp NestFuser::cloneWithoutInner() {
  IRMapping map;
  auto clone = cast<scf::ForOp>(b.cloneWithoutRegions(*outer, map));
  clone->removeAttr("tt.flatten");
  OpBuilder::InsertionGuard guard(b);
  Block *body = b.createBlock(&clone.getRegion(), {}, outer.getBody()->getArgumentTypes(),
                              SmallVector<Location>(outer.getBody()->getNumArguments(), loc));
  for (auto [from, to] : llvm::zip(outer.getBody()->getArguments(), body->getArguments()))
    map.map(from, to);
  b.setInsertionPointToStart(body);
  cloneProlog(map);
  for (auto [result, init] : llvm::zip(inner.getResults(), inner.getInitArgs()))
    map.map(result, map.lookupOrDefault(init));
  scf::YieldOp::create(b, loc, cloneEpilog(map));
  return clone;
}

scf::ForOp NestFuser::buildFused(Value total, Value innerTrips) {
  // The first outer iteration's prolog, before the loop: its values seed
  // the carried ones (no placeholder is ever read).
  IRMapping first;
  first.map(outer.getInductionVar(), outer.getLowerBound());
  for (auto [arg, init] : llvm::zip(outer.getRegionIterArgs(), outer.getInitArgs()))
    first.map(arg, init);
  cloneProlog(first);

  SmallVector<Value> inits(outer.getInitArgs());
  unsigned innerPos = inits.size();
  for (Value init : inner.getInitArgs())
    inits.push_back(first.lookupOrDefault(init));
  unsigned ivPos = inits.size();
  inits.push_back(outer.getLowerBound());
  inits.push_back(constI64(0));
  unsigned prologPos = inits.size();
  for (Value v : prologValues)
    inits.push_back(first.lookup(v));

  auto fused = scf::ForOp::create(b, loc, constI64(0), total, constI64(1), inits);
  fused.setUnsignedCmp(true);
  for (NamedAttribute attr : outer->getDiscardableAttrs())
    if (attr.getName() != "tt.flatten")
      fused->setAttr(attr.getName(), attr.getValue());
  for (NamedAttribute attr : inner->getDiscardableAttrs())
    if (!fused->hasAttr(attr.getName()))
      fused->setAttr(attr.getName(), attr.getValue());
  Block *body = fused.getBody();
  if (!body->empty())
    body->getTerminator()->erase();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  ValueRange args = fused.getRegionIterArgs();
  Value iv = args[ivPos], k = args[ivPos + 1];

  // p' = if (k == 0 && t != 0) { P(i, o) } else { p }
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, k, constI64(0));
  Value notStart = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                         fused.getInductionVar(), constI64(0));
  Value recompute = arith::AndIOp::create(b, loc, isFirst, notStart);
  SmallVector<Type> prologTypes;
  for (Value v : prologValues)
    prologTypes.push_back(v.getType());
  scf::IfOp prolog = createIf(prologTypes, recompute, args.slice(prologPos, prologValues.size()));
  IRMapping map;
  map.map(outer.getInductionVar(), iv);
  for (auto [from, to] : llvm::zip(outer.getRegionIterArgs(), args.take_front(innerPos)))
    map.map(from, to);
  {
    OpBuilder::InsertionGuard inThen(b);
    b.setInsertionPointToStart(prolog.thenBlock());
    IRMapping inside = map;
    cloneProlog(inside);
    SmallVector<Value> yielded;
    for (Value v : prologValues)
      yielded.push_back(inside.lookup(v));
    scf::YieldOp::create(b, loc, yielded);
  }
  for (auto [v, result] : llvm::zip(prologValues, prolog.getResults()))
    map.map(v, result);

  // x' = first ? init(p') : x, then the nested body at j = lb2 + k * s2.
  for (auto [arg, init, carried] :
       llvm::zip(inner.getRegionIterArgs(), inner.getInitArgs(),
                 args.slice(innerPos, inner.getNumRegionIterArgs())))
    map.map(arg, arith::SelectOp::create(b, loc, isFirst, map.lookupOrDefault(init), carried));
  Type innerIvType = inner.getInductionVar().getType();
  Value kNarrow = arith::TruncIOp::create(b, loc, innerIvType, k);
  Value j = b.createOrFold<arith::AddIOp>(
      loc, inner.getLowerBound(), b.createOrFold<arith::MulIOp>(loc, kNarrow, inner.getStep()));
  map.map(inner.getInductionVar(), j);
  for (Operation &op : inner.getBody()->without_terminator())
    b.clone(op, map);
  SmallVector<Value> innerNext;
  for (Value v : inner.getBody()->getTerminator()->getOperands())
    innerNext.push_back(map.lookupOrDefault(v));
  for (auto [result, next] : llvm::zip(inner.getResults(), innerNext))
    map.map(result, next);

  // o' = if (k == T2 - 1) { E(i, o, p', x'') } else { o }
  Value lastK = b.createOrFold<arith::SubIOp>(loc, innerTrips, constI64(1));
  Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, k, lastK);
  scf::IfOp epilog = createIf(outer.getResultTypes(), isLast, args.take_front(innerPos));
  {
    OpBuilder::InsertionGuard inThen(b);
    b.setInsertionPointToStart(epilog.thenBlock());
    scf::YieldOp::create(b, loc, cloneEpilog(map));
  }
  SmallVector<Value> yields(epilog.getResults());
  llvm::append_range(yields, innerNext);
  Value nextIv = arith::AddIOp::create(b, loc, iv, outer.getStep());
  yields.push_back(arith::SelectOp::create(b, loc, isLast, nextIv, iv));
  Value nextK = arith::AddIOp::create(b, loc, k, constI64(1));
  yields.push_back(arith::SelectOp::create(b, loc, isLast, constI64(0), nextK));
  llvm::append_range(yields, prolog.getResults());
  scf::YieldOp::create(b, loc, yields);
  return fused;
}

void NestFuser::run() {
  // The prolog's values read past it.
  for (Operation &op : outer.getBody()->without_terminator()) {
    if (&op == inner.getOperation())
      break;
    for (Value result : op.getResults()) {
      bool readLater = llvm::any_of(result.getUsers(), [&](Operation *user) {
        Operation *inBody = outer.getBody()->findAncestorOpInBlock(*user);
        return inBody == inner.getOperation() || inner->isBeforeInBlock(inBody);
      });
      if (readLater)
        prologValues.push_back(result);
    }
  }
  Operation *before = outer->getPrevNode();
  Value trips = tripCount(outer), innerTrips = tripCount(inner);
  Value total = arith::MulIOp::create(b, loc, trips, innerTrips);
  Value both = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, total, constI64(0));
  // Where the nested loop certainly iterates, the other case is an outer
  // loop that does not: its inits are the results.
  APInt count;
  bool innerIterates = matchPattern(innerTrips, m_ConstantInt(&count)) && !count.isZero();
  scf::IfOp branch = scf::IfOp::create(b, loc, outer.getResultTypes(), both,
                                       /*withElse=*/!innerIterates || outer.getNumResults());
  branch.thenBlock()->clear();
  if (Block *otherwise = branch.elseBlock()) {
    otherwise->clear();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(otherwise);
    if (innerIterates) {
      scf::YieldOp::create(b, loc, outer.getInitArgs());
    } else {
      scf::ForOp plain = cloneWithoutInner();
      scf::YieldOp::create(b, loc, plain.getResults());
    }
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    scf::ForOp fused = buildFused(total, innerTrips);
    scf::YieldOp::create(b, loc, fused.getResults().take_front(outer.getNumResults()));
  }
  outer.replaceAllUsesWith(branch.getResults());
  outer.erase();
  // What folding left unused (constants, the index of a nested loop that
  // ignores it).
  for (Region &region : branch->getRegions())
    region.walk([](Operation *op) {
      if (isOpTriviallyDead(op))
        op->erase();
    });
  Block::iterator first = before ? std::next(before->getIterator()) : branch->getBlock()->begin();
  SmallVector<Operation *> created;
  for (Operation &op : llvm::make_range(first, branch->getIterator()))
    created.push_back(&op);
  for (Operation *op : llvm::reverse(created))
    if (isOpTriviallyDead(op))
      op->erase();
}

struct FuseNestedLoopsPass : public ttg::impl::FuseNestedLoopsBase<FuseNestedLoopsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, scf::ForOp>> nests;
    llvm::SmallPtrSet<Operation *, 4> outers;
    // Innermost nests first; a loop fused with the one it holds is not
    // fused with the one holding it as well (one level per nest).
    getOperation().walk([&](scf::ForOp outer) {
      // A warp-specialised region's loops already stream their loads.
      if (!outer->hasAttr("tt.flatten") || outer->getParentOfType<ttg::WarpSpecializeOp>())
        return;
      scf::ForOp inner = fusableInner(outer);
      if (!inner || outers.contains(inner))
        return;
      outers.insert(outer);
      nests.push_back({outer, inner});
    });
    for (auto [outer, inner] : nests)
      NestFuser(outer, inner).run();
  }
};

} // namespace

//===- OverlapTileEpilogue.cpp - a tile's stores under the next one's wgmma ===//
//
// A warp-specialised matmul's consumers end each tile by waiting for all
// its wgmmas, then narrow the accumulator and store it (registers to shared
// memory, TMA copies out) while the tensor cores idle. Here the narrowed
// tile is carried into the next pass of the tile loop and stored once that
// tile's first wgmma is issued. The K loop's first step is peeled for it,
// so that the carried tile is dead during the rest of the K loop (its
// registers and the accumulator's would not fit together there). The peel
// is unconditional, in a copy of the tile loop taken when the K loop runs
// at all (its bounds do not change from tile to tile): a peel under a
// condition would join the in-flight accumulator with the zeros of the
// other path, and ptxas then serialises every wgmma of the kernel.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/NVIDIA/Transforms/Passes.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::nvidia {
#define GEN_PASS_DEF_OVERLAPTILEEPILOGUE
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"
} // namespace kiln::nvidia

using namespace mlir;
using namespace kiln;

namespace {

/// A tile loop whose pass ends `steps` (the K loop, with T-invariant
/// bounds), waits for its last wgmma, narrows the accumulator (`narrow`)
/// and then only stores it (`stores`, every op after `narrow`, each
/// movable).
struct TileEpilogue {
  scf::ForOp tiles, steps;
  ttng::WarpGroupDotOp firstDot;
  arith::TruncFOp narrow;
  SmallVector<Operation *> stores;
  /// Non-constant values the stores use from the tile loop's pass, other
  /// than the narrowed tile: carried along with it. Integers and floats
  /// only (they get a zero before the first tile).
  SmallVector<Value> carried;
};

bool isScalar(Type type) { return isa<IntegerType, IndexType, FloatType>(type); }

/// What may move past the next tile's first wgmma: register code, and the
/// writes of a tile going out (into shared memory, then by TMA, with the
/// waits, fences and consumer barriers between). An mbarrier operation
/// would move another partition's hand-off; a read, what it reads.
bool movable(Operation *op) {
  return isMemoryEffectFree(op) ||
         isa<ttg::LocalStoreOp, ttg::BarrierOp, ttng::FenceAsyncSharedOp,
             ttng::AsyncTMACopyLocalToGlobalOp, ttng::TMAStoreWaitOp, tt::StoreOp>(op);
}

/// Whether `op` or an op nested in it may read global memory (or has
/// effects nobody declared): the previous tile's stores, issued after the
/// peeled step's ops up to its wgmma, must not be read by them.
bool mayReadGlobal(Operation *op) {
  WalkResult found = op->walk([](Operation *inner) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(inner);
    if (!effects)
      return inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>() || inner->getNumRegions() ||
                     isPure(inner) || isa<scf::YieldOp>(inner)
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &effect : list)
      if (isa<MemoryEffects::Read>(effect.getEffect()) &&
          !isa<ttg::SharedMemory>(effect.getResource()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

std::optional<TileEpilogue> match(scf::ForOp tiles) {
  Block *body = tiles.getBody();
  TileEpilogue e;
  e.tiles = tiles;
  ttng::WarpGroupDotWaitOp drain;
  for (Operation &op : *body) {
    auto wait = dyn_cast<ttng::WarpGroupDotWaitOp>(op);
    if (!wait || wait.getPendings() != 0 || wait.getInputs().size() != 1)
      continue;
    auto steps = wait.getInputs()[0].getDefiningOp<scf::ForOp>();
    if (steps && steps->getBlock() == body) {
      drain = wait;
      e.steps = steps;
    }
  }
  if (!drain || !drain.getResult(0).hasOneUse() ||
      !llvm::all_of(ValueRange{e.steps.getLowerBound(), e.steps.getUpperBound(), e.steps.getStep()},
                    [&](Value v) { return tiles.isDefinedOutsideOfLoop(v); }))
    return std::nullopt;
  e.narrow = dyn_cast<arith::TruncFOp>(*drain.getResult(0).getUsers().begin());
  if (!e.narrow || e.narrow->getBlock() != body)
    return std::nullopt;
  for (Operation &op : *e.steps.getBody())
    if ((e.firstDot = dyn_cast<ttng::WarpGroupDotOp>(op)))
      break;
  if (!e.firstDot)
    return std::nullopt;
  for (Operation &op : *e.steps.getBody()) {
    if (&op == e.firstDot.getOperation())
      break;
    if (mayReadGlobal(&op))
      return std::nullopt;
  }
  for (Operation *op = e.narrow->getNextNode(); op != body->getTerminator(); op = op->getNextNode())
    e.stores.push_back(op);
  if (e.stores.empty())
    return std::nullopt;
  llvm::SmallPtrSet<Operation *, 16> inStores(e.stores.begin(), e.stores.end());
  bool writes = false;
  for (Operation *op : e.stores) {
    // Only straight-line code moves, and nothing after it reads its values.
    if (op->getNumRegions() || !movable(op) ||
        llvm::any_of(op->getUsers(), [&](Operation *u) { return !inStores.contains(u); }))
      return std::nullopt;
    writes |= !isMemoryEffectFree(op);
    for (Value v : op->getOperands()) {
      if (v == e.narrow.getResult() || !tiles.getBodyRegion().isAncestor(v.getParentRegion()))
        continue;
      Operation *def = v.getDefiningOp();
      if (def && (inStores.contains(def) || def->hasTrait<OpTrait::ConstantLike>()))
        continue;
      if (!isScalar(v.getType()))
        return std::nullopt;
      if (!llvm::is_contained(e.carried, v))
        e.carried.push_back(v);
    }
  }
  if (!writes ||
      llvm::any_of(e.narrow->getUsers(), [&](Operation *u) { return !inStores.contains(u); }))
    return std::nullopt;
  return e;
}

Value zeroOf(OpBuilder &b, Location loc, Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(tensor, b.getZeroAttr(tensor.getElementType())));
  return arith::ConstantOp::create(b, loc, cast<TypedAttr>(b.getZeroAttr(type)));
}

class Rewriter {
public:
  explicit Rewriter(TileEpilogue e) : e(std::move(e)), loc(this->e.tiles.getLoc()) {}

  /// Returns false, changing nothing, when the copy does not match as the
  /// original did (it always should).
  bool run() {
    OpBuilder b(e.tiles);
    Value runs = arith::CmpIOp::create(
        b, loc, e.steps.getUnsignedCmp() ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt,
        e.steps.getLowerBound(), e.steps.getUpperBound());
    auto version = scf::IfOp::create(b, loc, e.tiles.getResultTypes(), runs,
                                     /*withElseRegion=*/true);
    // Without results the builder made the yields; ours follow.
    for (Block *block : {version.thenBlock(), version.elseBlock()})
      if (!block->empty())
        block->back().erase();
    OpBuilder then = OpBuilder::atBlockEnd(version.thenBlock());
    auto copy = cast<scf::ForOp>(then.clone(*e.tiles));
    scf::YieldOp::create(then, loc, copy.getResults());
    std::optional<TileEpilogue> matched = match(copy);
    if (!matched) {
      version->erase();
      runs.getDefiningOp()->erase();
      return false;
    }
    e.tiles.replaceAllUsesWith(version.getResults());
    OpBuilder otherwise = OpBuilder::atBlockEnd(version.elseBlock());
    scf::YieldOp::create(otherwise, loc, e.tiles.getResults());
    e.tiles->moveBefore(version.elseBlock()->getTerminator());
    e = *matched;
    growTileLoop();
    peelFirstStep();
    // The last tile's stores, after the loop.
    b.setInsertionPoint(version.thenBlock()->getTerminator());
    emitStores(b, e.tiles.getResults().take_back(e.carried.size() + 2));
    for (Operation *op : llvm::reverse(e.stores))
      op->erase();
    return true;
  }

private:
  /// The tile loop carries [narrowed tile, carried..., has a tile]: zeros
  /// and false into the first pass; this pass's tile, values and true out.
  void growTileLoop() {
    OpBuilder b(e.tiles);
    SmallVector<Value> inits{zeroOf(b, loc, e.narrow.getType())};
    for (Value v : e.carried)
      inits.push_back(zeroOf(b, loc, v.getType()));
    inits.push_back(arith::ConstantIntOp::create(b, loc, 0, 1));
    // Block arguments among the carried values are renewed with the loop.
    SmallVector<int> argNumber;
    for (Value v : e.carried)
      argNumber.push_back(isa<BlockArgument>(v) ? int(cast<BlockArgument>(v).getArgNumber()) : -1);
    IRRewriter rewriter(b);
    auto grown = cast<scf::ForOp>(
        e.tiles
            .replaceWithAdditionalYields(rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
                                         [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
                                           return SmallVector<Value>(args.begin(), args.end());
                                         })
            ->getOperation());
    e.tiles = grown;
    for (auto [i, n] : llvm::enumerate(argNumber))
      if (n >= 0)
        e.carried[i] = grown.getBody()->getArgument(n);
    auto yield = cast<scf::YieldOp>(grown.getBody()->getTerminator());
    unsigned first = yield->getNumOperands() - (e.carried.size() + 2);
    b.setInsertionPoint(yield);
    yield->setOperand(first, e.narrow.getResult());
    for (auto [i, v] : llvm::enumerate(e.carried))
      yield->setOperand(first + 1 + i, v);
    yield->setOperand(yield->getNumOperands() - 1, arith::ConstantIntOp::create(b, loc, 1, 1));
  }

  /// The previous tile's stores, if there is one: `values` is [tile,
  /// carried..., has a tile].
  void emitStores(OpBuilder &b, ValueRange values) {
    auto guard = scf::IfOp::create(b, loc, TypeRange(), values.back(), /*withElseRegion=*/false);
    OpBuilder inside = guard.getThenBodyBuilder();
    IRMapping map;
    map.map(e.narrow.getResult(), values.front());
    for (auto [v, c] : llvm::zip(e.carried, values.drop_front().drop_back()))
      map.map(v, c);
    for (Operation *op : e.stores) {
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp();
            def && def->hasTrait<OpTrait::ConstantLike>() && !map.contains(v) &&
            e.tiles.getBodyRegion().isAncestor(def->getParentRegion()))
          inside.clone(*def, map);
      inside.clone(*op, map);
    }
  }

  /// K's first step before it, with the previous tile's stores right after
  /// its wgmma is issued; K starts one step later.
  void peelFirstStep() {
    scf::ForOp steps = e.steps;
    ValueRange previous = e.tiles.getRegionIterArgs().take_back(e.carried.size() + 2);
    OpBuilder b(steps);
    IRMapping map;
    map.map(steps.getInductionVar(), steps.getLowerBound());
    map.map(steps.getRegionIterArgs(), steps.getInitArgs());
    for (Operation &op : steps.getBody()->without_terminator()) {
      b.clone(op, map);
      if (&op == e.firstDot.getOperation())
        emitStores(b, previous);
    }
    SmallVector<Value> next;
    for (Value v : steps.getBody()->getTerminator()->getOperands())
      next.push_back(map.lookupOrDefault(v));
    steps.getLowerBoundMutable().assign(
        arith::AddIOp::create(b, loc, steps.getLowerBound(), steps.getStep()));
    steps.getInitArgsMutable().assign(next);
  }

  TileEpilogue e;
  Location loc;
};

struct OverlapTileEpiloguePass
    : public nvidia::impl::OverlapTileEpilogueBase<OverlapTileEpiloguePass> {
  void runOnOperation() override {
    SmallVector<TileEpilogue> found;
    getOperation().walk([&](ttg::WarpSpecializeOp ws) {
      for (Operation &op : ws.getDefaultRegion().front())
        if (auto loop = dyn_cast<scf::ForOp>(op))
          if (std::optional<TileEpilogue> e = match(loop))
            found.push_back(*e);
    });
    for (TileEpilogue &e : found)
      Rewriter(e).run();
  }
};

} // namespace

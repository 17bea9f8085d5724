//===- RemoveLayoutConversions.cpp - ttgir-remove-layout-conversions ------===//
//
// A simpler form of Triton 3.6's tritongpu-remove-layout-conversions:
// forward propagation of the layouts of MMA accumulators, then of loads and
// atomics (through tt.trans, tt.reshape and tt.split in the layouts the
// layout engine says keep every element in place), loop-carried values
// kept in the one layout their loop body converts them to, backward
// rematerialisation of cheap computations (tt.reshape included) in the
// layout a conversion asks for, converting at most 1/8 as many elements
// where a value cannot be recomputed, and folding of the conversions that
// are left redundant. Not done (yet): propagation through scf.while, hoisting
// conversions into conditionals, and a cost model weighing a conversion
// against recomputation.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Layout/Queries.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace kiln::ttg {
#define GEN_PASS_DEF_REMOVELAYOUTCONVERSIONS
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace kiln::ttg

using namespace mlir;
using namespace kiln;
using namespace kiln::ttg;

namespace {

Attribute encodingOf(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor ? tensor.getEncoding() : Attribute();
}

Type withEncoding(Type type, Attribute encoding) {
  return cast<RankedTensorType>(type).cloneWithEncoding(encoding);
}

/// Ops whose tensor operands and results share one layout.
bool isSameEncodingOp(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() ||
         op->hasTrait<tt::traits::SameOperandsAndResultEncoding>();
}

/// Tensor-core products, whose accumulator layout is the instruction's,
/// and ops whose layouts are explicit (a wait on a product in flight,
/// which hwx kernels write themselves).
bool isMmaAnchor(Operation *op) {
  return (op->hasTrait<tt::traits::DotLike>() && op->getNumResults() == 1 &&
          isa_and_nonnull<NvidiaMmaEncodingAttr>(encodingOf(op->getResult(0)))) ||
         isa<ExplicitLayoutOpInterface>(op);
}

/// Ops whose layout is fixed: by memory coalescing, or chosen by
/// ttgir-optimize-thread-locality (a gather's within warps, a split
/// reduction's view that keeps each thread's elements of a row in its
/// registers).
bool isAnchor(Operation *op) {
  if (auto gather = dyn_cast<tt::GatherOp>(op))
    return gather.getEfficientLayout();
  if (auto reshape = dyn_cast<tt::ReshapeOp>(op))
    return reshape.getEfficientLayout();
  // A poll's result keeps its pointers' (coalesced) layout, as an atomic's.
  return isa<tt::LoadOp, tt::AtomicRMWOp, tt::AtomicCASOp, tt::AtomicLoadOp, tt::AtomicPollOp>(
      op);
}

/// A reduction to scalars reads its operands in any (common) layout.
bool isLayoutAgnostic(Operation *op) {
  auto reduce = dyn_cast<tt::ReduceOp>(op);
  return reduce && llvm::none_of(reduce->getResultTypes(),
                                 [](Type t) { return isa<RankedTensorType>(t); });
}

//===----------------------------------------------------------------------===//
// Forward propagation
//===----------------------------------------------------------------------===//

class Propagation {
public:
  void run(tt::FuncOp func);

private:
  void add(Value value, Attribute encoding);
  void propagateToUser(OpOperand &use, Attribute encoding);
  void rewrite(tt::FuncOp func);
  Type requiredOperandType(OpOperand &operand);

  llvm::MapVector<Value, llvm::SetVector<Attribute>> layouts;
  SmallVector<std::pair<Value, Attribute>> worklist;
  /// Types before the rewrite, of the values it retypes.
  DenseMap<Value, Type> originalTypes;
  /// For a view op and a layout of its result, the source layout it came from.
  DenseMap<std::pair<Operation *, Attribute>, Attribute> viewSources;
  llvm::DenseSet<Operation *> rewritten;
};

void Propagation::add(Value value, Attribute encoding) {
  if (!isa_and_nonnull<RankedTensorType>(value.getType()) || !encoding)
    return;
  if (layouts[value].insert(encoding))
    worklist.push_back({value, encoding});
}

void Propagation::propagateToUser(OpOperand &use, Attribute encoding) {
  Operation *user = use.getOwner();
  unsigned index = use.getOperandNumber();
  if (auto forOp = dyn_cast<scf::ForOp>(user)) {
    if (index < 3)
      return;
    add(forOp.getRegionIterArgs()[index - 3], encoding);
    add(forOp.getResult(index - 3), encoding);
    return;
  }
  if (isa<scf::YieldOp>(user)) {
    Operation *parent = user->getParentOp();
    if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
      add(forOp.getRegionIterArgs()[index], encoding);
      add(forOp.getResult(index), encoding);
    } else if (isa<scf::IfOp>(parent)) {
      add(parent->getResult(index), encoding);
    }
    return;
  }
  if (auto reduce = dyn_cast<tt::ReduceOp>(user)) {
    auto distributed = dyn_cast<DistributedEncodingInterface>(encoding);
    // A reduction combines inside CTAs: a layout that splits its axis over
    // the CTAs of a cluster stops at it.
    if (isSplitOverCTAs(cast<RankedTensorType>(use.get().getType()).cloneWithEncoding(encoding),
                        reduce.getAxis()))
      return;
    for (Value result : reduce.getResults())
      if (distributed && isa<RankedTensorType>(result.getType()))
        add(result, SliceEncodingAttr::get(user->getContext(), reduce.getAxis(), distributed));
    return;
  }
  if (auto expand = dyn_cast<tt::ExpandDimsOp>(user)) {
    auto slice = dyn_cast<SliceEncodingAttr>(encoding);
    if (slice && slice.getDim() == expand.getAxis())
      add(expand.getResult(), slice.getParent());
    return;
  }
  if (Attribute viewed = viewResultEncoding(user, encoding)) {
    viewSources.try_emplace({user, viewed}, encoding);
    for (Value result : user->getResults())
      add(result, viewed);
    return;
  }
  if (isa<ConvertLayoutOp>(user) || (isSameEncodingOp(user) && user->getNumRegions() == 0))
    for (Value result : user->getResults())
      add(result, encoding);
}

Type Propagation::requiredOperandType(OpOperand &operand) {
  Operation *op = operand.getOwner();
  Value value = operand.get();
  unsigned index = operand.getOperandNumber();
  if (isa<ConvertLayoutOp>(op))
    return value.getType();
  if (isLayoutAgnostic(op)) // operands agree with the first
    return withEncoding(value.getType(), encodingOf(op->getOperand(0)));
  if (!rewritten.contains(op)) { // keeps what it had
    auto it = originalTypes.find(value);
    return it == originalTypes.end() ? value.getType() : it->second;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return index < 3 ? value.getType() : forOp.getRegionIterArgs()[index - 3].getType();
  if (isa<scf::YieldOp>(op))
    return op->getParentOp()->getResult(index).getType();
  if (auto expand = dyn_cast<tt::ExpandDimsOp>(op))
    return withEncoding(value.getType(),
                        SliceEncodingAttr::get(op->getContext(), expand.getAxis(),
                                               cast<DistributedEncodingInterface>(
                                                   encodingOf(expand.getResult()))));
  if (auto reduce = dyn_cast<tt::ReduceOp>(op))
    return withEncoding(value.getType(),
                        cast<SliceEncodingAttr>(encodingOf(reduce.getResult()[0])).getParent());
  if (isa<tt::TransOp, tt::ReshapeOp, tt::SplitOp>(op))
    return withEncoding(value.getType(),
                        viewSources.lookup({op, encodingOf(op->getResult(0))}));
  return withEncoding(value.getType(), encodingOf(op->getResult(0)));
}

void Propagation::rewrite(tt::FuncOp func) {
  // Retype every value whose chosen (first) layout differs.
  for (auto &[value, candidates] : layouts) {
    Attribute chosen = candidates.front();
    if (encodingOf(value) == chosen)
      continue;
    originalTypes[value] = value.getType();
    value.setType(withEncoding(value.getType(), chosen));
    if (auto result = dyn_cast<OpResult>(value))
      rewritten.insert(result.getOwner());
    else if (auto forOp = dyn_cast<scf::ForOp>(cast<BlockArgument>(value).getOwner()->getParentOp()))
      rewritten.insert(forOp);
  }
  // The yields of a retyped scf.for or scf.if follow its results.
  for (Operation *op : llvm::to_vector(rewritten))
    if (isa<scf::ForOp, scf::IfOp>(op))
      for (Region &region : op->getRegions())
        for (Block &block : region)
          rewritten.insert(block.getTerminator());
  // Then make every operand the type its user needs.
  func.walk([&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<RankedTensorType>(operand.get().getType()))
        continue;
      Type required = requiredOperandType(operand);
      if (required == operand.get().getType())
        continue;
      OpBuilder builder(op);
      operand.set(ConvertLayoutOp::create(builder, op->getLoc(), required, operand.get()));
    }
  });
}

void Propagation::run(tt::FuncOp func) {
  // MMA accumulators first: where they meet a load's layout, the values
  // keep the accumulator's (a loop-carried accumulator must not be
  // converted in every iteration).
  for (auto anchors : {isMmaAnchor, isAnchor}) {
    func.walk([&](Operation *op) {
      if (anchors(op))
        for (Value result : op->getResults())
          add(result, encodingOf(result));
    });
    while (!worklist.empty()) {
      auto [value, encoding] = worklist.pop_back_val();
      for (OpOperand &use : value.getUses())
        propagateToUser(use, encoding);
    }
  }
  rewrite(func);
}

//===----------------------------------------------------------------------===//
// Backward rematerialisation
//===----------------------------------------------------------------------===//

/// `enc` as the source layout of `tt.trans` with `order` whose result is
/// `enc` (the inverse permutation), for blocked layouts.
Attribute untransposeBlocked(Attribute encoding, ArrayRef<int32_t> order) {
  auto enc = dyn_cast<BlockedEncodingAttr>(encoding);
  if (!enc)
    return {};
  unsigned rank = order.size();
  SmallVector<unsigned> size(rank), lanes(rank), warps(rank), newOrder;
  for (unsigned i = 0; i < rank; ++i) {
    size[order[i]] = enc.getSizePerThread()[i];
    lanes[order[i]] = enc.getThreadsPerWarp()[i];
    warps[order[i]] = enc.getWarpsPerCTA()[i];
  }
  for (unsigned d : enc.getOrder())
    newOrder.push_back(order[d]);
  SmallVector<int32_t> inverse(rank);
  for (unsigned i = 0; i < rank; ++i)
    inverse[order[i]] = int32_t(i);
  return BlockedEncodingAttr::get(enc.getContext(), size, lanes, warps, newOrder,
                                  transposeCGA(enc.getCgaLayout(), inverse));
}

/// The layout of a tt.reshape's source whose result is in `encoding`: the
/// elements keep their hardware locations (null when `encoding` has no
/// linear layout for the result's shape).
Attribute unreshaped(tt::ReshapeOp reshape, Attribute encoding) {
  auto result = reshape.getType().cloneWithEncoding(encoding);
  llvm::Expected<layout::LinearLayout> ll = toLinearLayout(result);
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return {};
  }
  return linearEncoding(reshape.getContext(),
                        layout::reshapeLayout(*ll, reshape.getSrc().getType().getShape()));
}

class Rematerializer {
public:
  /// Replaces `cvt` by its source recomputed in the target layout, when the
  /// source is computed by cheap ops only, from values that are converted
  /// instead where they are much smaller than `cvt`'s (a scale broadcast
  /// over K: its few exponents move, not the whole tile).
  void tryRematerialize(ConvertLayoutOp cvt);

private:
  using Key = std::pair<Value, Attribute>;
  /// At most this fraction of the conversion's elements for a value to be
  /// converted rather than recomputed.
  static constexpr int64_t kBoundaryRatio = 8;
  bool isSmallBoundary(Value value) const {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !value.getDefiningOp())
      return false;
    if (type.getNumElements() * kBoundaryRatio <= elements)
      return true;
    // For a dot operand, the load converted instead of what is computed
    // from it, when that moves no more bytes (an fp8 operand upcast: the
    // pipeliner then reads the load's slot straight into the operand layout,
    // where the upcast runs, as Triton does).
    return toDotOperand && isa<tt::LoadOp>(value.getDefiningOp()) &&
           type.getElementType().isIntOrFloat() &&
           type.getNumElements() * type.getElementTypeBitWidth() <= elements * elementBits;
  }
  int64_t elements = 0;
  unsigned elementBits = 0;
  bool toDotOperand = false;
  /// The operand layouts `op` needs for results in `encoding`; failure if
  /// `op` must not or cannot be recomputed.
  FailureOr<SmallVector<Attribute>> operandEncodings(Operation *op, Attribute encoding);
  bool collect(Value value, Attribute encoding, llvm::SetVector<Key> &slice);
  Value materialize(Value value, Attribute encoding);

  DenseMap<Key, Value> done;
  /// Collected values that are converted where they are, not recomputed.
  DenseMap<Key, bool> boundaries;
};

FailureOr<SmallVector<Attribute>> Rematerializer::operandEncodings(Operation *op,
                                                                   Attribute encoding) {
  if (op->getNumRegions() != 0 || op->getNumResults() != 1 || !isMemoryEffectFree(op))
    return failure();
  SmallVector<Attribute> result(op->getNumOperands());
  auto forTensors = [&](Attribute enc) {
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      if (isa<RankedTensorType>(operand.getType()))
        result[i] = enc;
  };
  if (isa<tt::SplatOp, tt::MakeRangeOp, arith::ConstantOp>(op))
    return result;
  if (auto expand = dyn_cast<tt::ExpandDimsOp>(op)) {
    auto distributed = dyn_cast<DistributedEncodingInterface>(encoding);
    if (!distributed)
      return failure();
    forTensors(SliceEncodingAttr::get(op->getContext(), expand.getAxis(), distributed));
    return result;
  }
  if (auto reshape = dyn_cast<tt::ReshapeOp>(op)) {
    Attribute src = unreshaped(reshape, encoding);
    if (!src)
      return failure();
    forTensors(src);
    return result;
  }
  if (auto trans = dyn_cast<tt::TransOp>(op)) {
    Attribute src = untransposeBlocked(encoding, trans.getOrder());
    if (!src)
      return failure();
    forTensors(src);
    return result;
  }
  if (isSameEncodingOp(op) && isa<RankedTensorType>(op->getResult(0).getType())) {
    forTensors(encoding);
    return result;
  }
  return failure();
}

bool Rematerializer::collect(Value value, Attribute encoding, llvm::SetVector<Key> &slice) {
  Key key{value, encoding};
  if (encodingOf(value) == encoding || done.count(key) || slice.contains(key))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  // Converting the source of a conversion costs no more than converting it.
  if (isa<ConvertLayoutOp>(def)) {
    slice.insert(key);
    return true;
  }
  FailureOr<SmallVector<Attribute>> encodings = operandEncodings(def, encoding);
  bool recomputed = succeeded(encodings);
  if (recomputed)
    for (auto [operand, enc] : llvm::zip(def->getOperands(), *encodings))
      if (enc && !collect(operand, enc, slice)) {
        recomputed = false;
        break;
      }
  if (!recomputed && !isSmallBoundary(value))
    return false;
  boundaries[key] = !recomputed;
  slice.insert(key); // after its operands: a valid order to build in
  return true;
}

Value Rematerializer::materialize(Value value, Attribute encoding) {
  if (encodingOf(value) == encoding)
    return value;
  if (Value known = done.lookup({value, encoding}))
    return known;
  Operation *def = value.getDefiningOp();
  OpBuilder builder(def->getContext());
  builder.setInsertionPointAfter(def);
  Type type = withEncoding(value.getType(), encoding);
  Value result;
  if (auto cvt = dyn_cast<ConvertLayoutOp>(def)) {
    result = ConvertLayoutOp::create(builder, def->getLoc(), type, cvt.getSrc());
  } else if (boundaries.lookup({value, encoding})) {
    result = ConvertLayoutOp::create(builder, def->getLoc(), type, value);
  } else {
    SmallVector<Attribute> encodings = *operandEncodings(def, encoding);
    IRMapping mapping;
    for (auto [operand, enc] : llvm::zip(def->getOperands(), encodings))
      if (enc)
        mapping.map(operand, materialize(operand, enc));
    Operation *clone = builder.clone(*def, mapping);
    clone->getResult(0).setType(type);
    if (auto cst = dyn_cast<arith::ConstantOp>(clone))
      cst.setValueAttr(cast<DenseElementsAttr>(cst.getValue()).reshape(cast<ShapedType>(type)));
    result = clone->getResult(0);
  }
  done[{value, encoding}] = result;
  return result;
}

void Rematerializer::tryRematerialize(ConvertLayoutOp cvt) {
  Attribute target = encodingOf(cvt.getResult());
  elements = cvt.getType().getNumElements();
  Type elem = cvt.getType().getElementType();
  elementBits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 64;
  toDotOperand = isa<DotOperandEncodingAttr>(target);
  llvm::SetVector<Key> slice;
  if (isa_and_nonnull<ConvertLayoutOp>(cvt.getSrc().getDefiningOp()) ||
      !collect(cvt.getSrc(), target, slice))
    return;
  // Only dense constants can be rebuilt in another layout.
  for (auto &[value, enc] : slice)
    if (auto cst = value.getDefiningOp<arith::ConstantOp>();
        cst && !isa<DenseElementsAttr>(cst.getValue()))
      return;
  cvt.getResult().replaceAllUsesWith(materialize(cvt.getSrc(), target));
  cvt.erase();
}

//===----------------------------------------------------------------------===//
// Loop-carried values
//===----------------------------------------------------------------------===//

/// Whether every use of `arg` other than conversions to `encoding` only
/// computes the value yielded in its place (as `p = addptr(p, step)` does).
bool feedsOnlyItsUpdate(BlockArgument arg, Value yielded, Attribute encoding) {
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.inclusive = true;
  options.omitBlockArguments = true;
  options.filter = [&](Operation *op) { return op->getBlock() == arg.getOwner(); };
  if (Operation *def = yielded.getDefiningOp(); def && def->getBlock() == arg.getOwner())
    (void)getBackwardSlice(def, &slice, options);
  for (Operation *user : arg.getUsers()) {
    auto cvt = dyn_cast<ConvertLayoutOp>(user);
    if ((cvt && encodingOf(cvt.getResult()) == encoding) || slice.contains(user))
      continue;
    return false;
  }
  return true;
}

/// A loop-carried tensor that the loop body converts to one other layout
/// (a pointer tensor to its load's coalesced layout) is carried in that
/// layout instead: its initial value and its update are converted once
/// (and then rematerialised), not the value in every iteration.
void carryInConvertedLayout(tt::FuncOp func) {
  SmallVector<scf::ForOp> loops;
  func.walk([&](scf::ForOp forOp) { loops.push_back(forOp); });
  for (scf::ForOp forOp : loops) {
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(forOp.getRegionIterArgs())) {
      if (!isa<RankedTensorType>(arg.getType()))
        continue;
      Attribute target;
      for (Operation *user : arg.getUsers())
        if (auto cvt = dyn_cast<ConvertLayoutOp>(user))
          target = target ? target : encodingOf(cvt.getResult());
      Value yielded = yield.getOperand(i);
      if (!target || !feedsOnlyItsUpdate(arg, yielded, target))
        continue;
      Type oldType = arg.getType(), newType = withEncoding(oldType, target);
      OpBuilder b(forOp);
      OpOperand &init = forOp.getInitArgsMutable()[i];
      init.set(ConvertLayoutOp::create(b, forOp.getLoc(), newType, init.get()));
      arg.setType(newType);
      b.setInsertionPointToStart(forOp.getBody());
      auto back = ConvertLayoutOp::create(b, forOp.getLoc(), oldType, arg);
      for (OpOperand &use : llvm::make_early_inc_range(arg.getUses())) {
        auto cvt = dyn_cast<ConvertLayoutOp>(use.getOwner());
        if (cvt && cvt != back && encodingOf(cvt.getResult()) == target)
          cvt.getResult().replaceAllUsesWith(arg);
        else if (use.getOwner() != back)
          use.set(back);
      }
      b.setInsertionPoint(yield);
      yield->setOperand(i, ConvertLayoutOp::create(b, yield.getLoc(), newType, yielded));
      Value result = forOp.getResult(i);
      result.setType(newType);
      b.setInsertionPointAfter(forOp);
      auto out = ConvertLayoutOp::create(b, forOp.getLoc(), oldType, result);
      result.replaceAllUsesExcept(out, out);
    }
  }
}

//===----------------------------------------------------------------------===//
// Clean-up
//===----------------------------------------------------------------------===//

/// convert(splat / make_range / constant) is the same op in the new layout.
struct RebuildInLayout : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp cvt, PatternRewriter &rewriter) const override {
    Operation *def = cvt.getSrc().getDefiningOp();
    Type type = cvt.getType();
    if (auto splat = dyn_cast_or_null<tt::SplatOp>(def)) {
      rewriter.replaceOpWithNewOp<tt::SplatOp>(cvt, type, splat.getSrc());
      return success();
    }
    if (auto range = dyn_cast_or_null<tt::MakeRangeOp>(def)) {
      rewriter.replaceOpWithNewOp<tt::MakeRangeOp>(cvt, type, range.getStart(), range.getEnd());
      return success();
    }
    if (auto cst = dyn_cast_or_null<arith::ConstantOp>(def)) {
      auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
      if (!dense)
        return failure();
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(cvt, type,
                                                     dense.reshape(cast<ShapedType>(type)));
      return success();
    }
    return failure();
  }
};

/// A buffer is written from a tensor in any distributed layout: the
/// conversion in front of ttg.local_alloc or ttg.local_store is a
/// shared-memory round trip for nothing.
template <typename WriteOp>
struct WriteFromSource : public OpRewritePattern<WriteOp> {
  using OpRewritePattern<WriteOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(WriteOp write, PatternRewriter &rewriter) const override {
    Value src = write.getSrc();
    auto cvt = src ? src.template getDefiningOp<ConvertLayoutOp>() : ConvertLayoutOp();
    if (!cvt)
      return failure();
    rewriter.modifyOpInPlace(write, [&] { write.getSrcMutable().assign(cvt.getSrc()); });
    return success();
  }
};

LogicalResult cleanUp(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  RewritePatternSet patterns(ctx);
  patterns.add<RebuildInLayout, WriteFromSource<LocalAllocOp>, WriteFromSource<LocalStoreOp>>(ctx);
  return applyPatternsGreedily(module, std::move(patterns));
}

struct RemoveLayoutConversionsPass
    : public ttg::impl::RemoveLayoutConversionsBase<RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : module.getOps<tt::FuncOp>())
      Propagation().run(func);
    if (failed(cleanUp(module)))
      return signalPassFailure();
    for (auto func : module.getOps<tt::FuncOp>())
      carryInConvertedLayout(func);
    Rematerializer remat;
    SmallVector<ConvertLayoutOp> converts;
    module.walk([&](ConvertLayoutOp cvt) { converts.push_back(cvt); });
    for (ConvertLayoutOp cvt : converts)
      remat.tryRematerialize(cvt);
    if (failed(cleanUp(module)))
      signalPassFailure();
  }
};

} // namespace

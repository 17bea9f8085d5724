//===- ConvertFromTTIR.cpp - the ttgir-convert-from-ttir pass -------------===//
//
// Retypes a TTIR module in place: every tensor gets the default blocked
// layout of its shape unless its op derives its layout from an operand, and
// a ttg.convert_layout is put in front of every operand whose layout is not
// the one its user needs. Follows Triton 3.6's convert-triton-to-tritongpu.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"

#include "kiln/Base/Options.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <numeric>

namespace kiln::ttg {
#define GEN_PASS_DEF_CONVERTFROMTTIR
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace kiln::ttg

using namespace mlir;
using namespace kiln;
using namespace kiln::ttg;

namespace {

struct ConvertFromTTIRPass : public ttg::impl::ConvertFromTTIRBase<ConvertFromTTIRPass> {
  using ConvertFromTTIRBase::ConvertFromTTIRBase;

  void runOnOperation() override;

private:
  /// The type a tensor without a layout gets: its default layout, split
  /// over the CTAs of a cluster except along `keepWhole`'s dimensions.
  Type convert(Type type, uint64_t keepWhole = 0) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || tensor.getEncoding())
      return type;
    return tensor.cloneWithEncoding(getDefaultBlockedEncoding(&getContext(), tensor.getShape(),
                                                              warps, threadsPerWarp, ctas,
                                                              keepWhole));
  }
  Type convertValue(Value value) {
    auto it = plannedCGA.find(value);
    return convertSplit(value.getType(), wholeAxes.lookup(value),
                        it == plannedCGA.end() ? ArrayRef<int32_t>() : ArrayRef(it->second));
  }
  /// `type` without a layout given its default layout split over the CTAs
  /// as `planned` says (CGA bases, flattened) where a product planned it
  /// and it keeps `keepWhole` whole, else as the default split keeping
  /// `keepWhole` whole.
  Type convertSplit(Type type, uint64_t keepWhole, ArrayRef<int32_t> planned) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || tensor.getEncoding() || planned.empty())
      return convert(type, keepWhole);
    unsigned rank = tensor.getRank();
    for (size_t i = 0; i < planned.size(); ++i)
      if (planned[i] != 0 && (keepWhole >> (i % rank) & 1))
        return convert(type, keepWhole);
    SmallVector<unsigned> order(rank), sizePerThread(rank, 1);
    std::iota(order.rbegin(), order.rend(), 0);
    return tensor.cloneWithEncoding(buildBlockedEncoding(
        &getContext(), tensor.getShape(), sizePerThread, order, warps, threadsPerWarp, planned));
  }
  /// Over several CTAs, the axes each value must keep whole in every CTA:
  /// those a reduction or scan combines along, back through the
  /// elementwise computation (loads included) that produces its operands,
  /// so that the default layouts need no conversion between CTAs (what
  /// Triton's plan-cta pass does after the fact). A product whose result
  /// is split along both M and N plans the exact split (plannedCGA) of its
  /// result, its operands and what they are computed from and feed.
  void findWholeAxes(ModuleOp module);
  DenseMap<Value, uint64_t> wholeAxes;
  DenseMap<Value, SmallVector<int32_t>> plannedCGA;
  /// `type` with its rows along `axis` whole in each CTA: a reduction or
  /// scan along it then combines inside CTAs.
  RankedTensorType wholeAlong(Type type, unsigned axis) {
    auto tensor = cast<RankedTensorType>(type);
    auto blocked = dyn_cast<BlockedEncodingAttr>(tensor.getEncoding());
    if (!blocked || ctas == 1)
      return tensor;
    SmallVector<int32_t> cga = defaultCGABases(tensor.getShape(), blocked.getOrder(), ctas,
                                               uint64_t(1) << axis);
    if (ArrayRef<int32_t>(cga) == blocked.getCgaLayout())
      return tensor;
    return tensor.cloneWithEncoding(buildBlockedEncoding(
        &getContext(), tensor.getShape(), blocked.getSizePerThread(), blocked.getOrder(),
        warps, threadsPerWarp, cga));
  }
  RankedTensorType scannedOperandType(Operation *op) {
    unsigned axis = isa<tt::ReduceOp>(op) ? cast<tt::ReduceOp>(op).getAxis()
                                           : cast<tt::ScanOp>(op).getAxis();
    return wholeAlong(op->getOperand(0).getType(), axis);
  }
  Type withEncodingOf(Type type, Type like) {
    auto tensor = cast<RankedTensorType>(type);
    return tensor.cloneWithEncoding(cast<RankedTensorType>(like).getEncoding());
  }
  LogicalResult retypeResults(Operation *op);
  LogicalResult convertOperands(Operation *op);
  /// Loop results (and their iteration arguments) that carry what an
  /// explicit-layout op made get its layout, not the default: a convert
  /// of a warpgroup MMA's accumulator while the MMA is in flight would
  /// read registers it has not written yet. Found after a first retyping;
  /// true if new ones were found.
  bool findCarriedLayouts(ModuleOp module);
  DenseMap<Value, Type> carriedLayouts;
  /// The warps the op being converted runs on: num-warps, or those of the
  /// ttg.warp_specialize partition it is in (hwx's tasks reach TTIR so).
  unsigned warps = 0;
  /// The CTAs each layout spans: num-ctas, or 1 where the program's CTAs
  /// each run it alone (a kernel that made its own buffers).
  unsigned ctas = 1;
  void enter(Operation *op) { warps = lookupNumWarps(op).value_or(unsigned(numWarps)); }
};

/// `enc` over a tensor with an extra last dimension of size 2 that each
/// thread holds both elements of: the layout a tt.join makes and a tt.split
/// takes, so that neither moves elements between threads.
Attribute withPairDimension(BlockedEncodingAttr enc) {
  unsigned rank = enc.getSizePerThread().size();
  SmallVector<unsigned> size(enc.getSizePerThread()), lanes(enc.getThreadsPerWarp()),
      warps(enc.getWarpsPerCTA()), order{rank};
  size.push_back(2);
  lanes.push_back(1);
  warps.push_back(1);
  llvm::append_range(order, enc.getOrder());
  // The pair is never split over CTAs.
  SmallVector<int32_t> cga;
  ArrayRef<int32_t> old = enc.getCgaLayout();
  for (size_t base = 0; rank && base + rank <= old.size(); base += rank) {
    llvm::append_range(cga, old.slice(base, rank));
    cga.push_back(0);
  }
  return BlockedEncodingAttr::get(enc.getContext(), size, lanes, warps, order, cga);
}

/// Registers a thread holds of `type` (a tensor with a layout), repeats
/// included; 0 when the layout does not fit it.
int64_t registersPerThread(RankedTensorType type) {
  llvm::Expected<layout::LinearLayout> ll = toLinearLayout(type);
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return 0;
  }
  return ll->getInDimSize(layout::kRegister);
}

/// The layout of a tt.cat's result: its default one, with each thread's
/// run along the fastest dimension long enough to hold both operands'
/// registers (tt.cat may reorder elements, and is lowered by putting them
/// side by side), rounded up to a power of two, as Triton's conversion
/// does where the operands repeat over threads (128 elements on 8 warps).
RankedTensorType catResultType(RankedTensorType result, RankedTensorType lhs,
                               RankedTensorType rhs) {
  auto blocked = dyn_cast<BlockedEncodingAttr>(result.getEncoding());
  int64_t have = registersPerThread(result);
  int64_t need = llvm::PowerOf2Ceil(registersPerThread(lhs) + registersPerThread(rhs));
  if (!blocked || have == 0 || need <= have)
    return result;
  SmallVector<unsigned> size(blocked.getSizePerThread());
  size[blocked.getOrder()[0]] *= need / have;
  return result.cloneWithEncoding(BlockedEncodingAttr::get(
      blocked.getContext(), size, blocked.getThreadsPerWarp(), blocked.getWarpsPerCTA(),
      blocked.getOrder(), blocked.getCgaLayout()));
}

/// How Triton's plan-cta tiles the M x N result of a product over `ctas`
/// CTAs: as few CTAs along M as leave each 128 rows, else 64, at most all
/// of them; the rest along N, if that leaves each CTA 64 columns or more
/// (otherwise the split with 64-row chunks stands). Returns (CTAs along M,
/// CTAs along N).
std::pair<int64_t, int64_t> ctaTiling(int64_t rows, int64_t cols, int64_t ctas) {
  int64_t alongM = 1, alongN = ctas;
  for (int64_t chunk : {128, 64}) {
    alongM = std::clamp<int64_t>(rows / chunk, 1, ctas);
    alongN = ctas / alongM;
    if (cols / alongN >= 64)
      break;
  }
  return {alongM, alongN};
}

/// The CGA bases (flattened, rank 2) of a result split over `alongM` CTAs
/// along M and `alongN` along N, the CTA id's low bits along N, as
/// Triton's CTA layouts of a product order them.
SmallVector<int32_t> tiledCGA(int64_t alongM, int64_t alongN) {
  SmallVector<int32_t> bases;
  for (int32_t split = 1; split < alongN; split *= 2)
    bases.append({0, split});
  for (int32_t split = 1; split < alongM; split *= 2)
    bases.append({split, 0});
  return bases;
}

/// The CGA bases of operand `opIdx` (0: A, 1: B) of a product whose
/// result's are `result` (flattened, `rank` entries each): the result's
/// with K's entry zero (layout::operandCGA).
SmallVector<int32_t> operandCGA(ArrayRef<int32_t> result, unsigned rank, unsigned opIdx) {
  SmallVector<int32_t> bases(result);
  for (size_t i = 0; i + rank <= bases.size(); i += rank)
    bases[i + (opIdx == 0 ? rank - 1 : rank - 2)] = 0;
  return bases;
}

/// `cga` (flattened) fitted to `shape`: along a dimension of fewer
/// elements than it splits into, the largest bases hold copies instead.
SmallVector<int32_t> fitCGA(ArrayRef<int32_t> cga, ArrayRef<int64_t> shape) {
  unsigned rank = shape.size();
  SmallVector<int32_t> fitted(cga);
  for (size_t i = 0; rank && i + rank <= fitted.size(); i += rank)
    for (unsigned d = 0; d < rank; ++d)
      if (fitted[i + d] >= shape[d])
        fitted[i + d] = 0;
  return fitted;
}

void ConvertFromTTIRPass::findWholeAxes(ModuleOp module) {
  SmallVector<Value> worklist;
  auto mark = [&](Value v, uint64_t axes) {
    if (!isa<RankedTensorType>(v.getType()))
      return;
    uint64_t &known = wholeAxes[v];
    if ((known | axes) == known)
      return;
    known |= axes;
    worklist.push_back(v);
  };
  // The first plan to reach a value holds (a value two products plan
  // differently is converted for the second).
  auto plan = [&](Value v, ArrayRef<int32_t> cga) {
    auto tensor = dyn_cast<RankedTensorType>(v.getType());
    if (!tensor || cga.empty() || plannedCGA.count(v))
      return;
    plannedCGA[v] = fitCGA(cga, tensor.getShape());
    worklist.push_back(v);
  };
  // What `from` must keep, for `to`, which it is computed from or feeds.
  auto spread = [&](Value from, Value to) {
    mark(to, wholeAxes.lookup(from));
    if (auto it = plannedCGA.find(from); it != plannedCGA.end())
      plan(to, SmallVector<int32_t>(it->second));
  };
  module.walk([&](Operation *op) {
    if (auto reduce = dyn_cast<tt::ReduceOp>(op))
      for (Value src : reduce.getSrcs())
        mark(src, uint64_t(1) << reduce.getAxis());
    if (auto scan = dyn_cast<tt::ScanOp>(op))
      for (Value src : scan.getSrcs())
        mark(src, uint64_t(1) << scan.getAxis());
    // A product's operands are held whole along K, and along the result
    // dimension the result is not split over (layout::operandCGA): each CTA
    // loads the operand rows and columns of its part of the result.
    if (auto dot = dyn_cast<tt::DotOp>(op)) {
      RankedTensorType c = dot.getC().getType();
      unsigned rank = c.getRank();
      int64_t rows = c.getShape()[rank - 2], cols = c.getShape()[rank - 1];
      uint64_t mBit = uint64_t(1) << (rank - 2), nBit = uint64_t(1) << (rank - 1);
      if (!(wholeAxes.lookup(dot.getD()) & (mBit | nBit)) && !plannedCGA.count(dot.getD())) {
        // A 2-D result is tiled as Triton's plan-cta tiles it (ctaTiling):
        // along M only, along N only, or along both, so that each CTA keeps
        // 64 rows or more where it can (a warp group's wgmma). A batched
        // one, which Triton does not split, is split along the larger of M
        // and N (a square one along M when its CTAs keep 128 rows or more).
        uint64_t keep;
        if (rank == 2) {
          auto [splitM, splitN] = ctaTiling(rows, cols, ctas);
          if (splitM > 1 && splitN > 1) {
            SmallVector<int32_t> cga = tiledCGA(splitM, splitN);
            plan(dot.getD(), cga);
            plan(dot.getC(), cga);
          }
          keep = splitM == 1 ? mBit : splitN == 1 ? nBit : 0;
        } else {
          keep = rows > cols || (rows == cols && rows / ctas >= 128) ? nBit : mBit;
        }
        mark(dot.getD(), keep);
        mark(dot.getC(), keep);
      }
      uint64_t batch = (uint64_t(1) << (rank - 2)) - 1;
      uint64_t m = uint64_t(1) << (rank - 2), n = uint64_t(1) << (rank - 1);
      // Split along both M and N: the operands' exact splits.
      if (auto it = plannedCGA.find(dot.getD()); it != plannedCGA.end()) {
        SmallVector<int32_t> result = it->second;
        plan(dot.getA(), operandCGA(result, rank, 0));
        plan(dot.getB(), operandCGA(result, rank, 1));
        mark(dot.getA(), n); // A: [.., M, K]
        mark(dot.getB(), m); // B: [.., K, N]
        return;
      }
      // Otherwise whole along the dimension the result is not split over.
      SmallVector<unsigned> order(rank);
      std::iota(order.rbegin(), order.rend(), 0);
      SmallVector<int32_t> cga =
          defaultCGABases(c.getShape(), order, ctas, wholeAxes.lookup(dot.getD()));
      uint64_t splitDims = 0;
      for (size_t i = 0; i < cga.size(); ++i)
        if (cga[i] != 0)
          splitDims |= uint64_t(1) << (i % rank);
      uint64_t keepA = ((batch | m) & ~splitDims) | n; // A: [.., M, K]
      uint64_t keepB = ((batch | n) & ~splitDims) | m; // B: [.., K, N]
      mark(dot.getA(), keepA);
      mark(dot.getB(), keepB);
    }
  });
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (forOp && arg.getArgNumber() > 0) {
        unsigned i = arg.getArgNumber() - 1;
        spread(v, forOp.getInitArgs()[i]);
        spread(v, forOp.getResult(i));
        spread(v, forOp.getBody()->getTerminator()->getOperand(i));
      }
      continue;
    }
    // Forward too, so that what is computed elementwise from it (the
    // values a softmax stores) is laid out alike.
    auto shape = cast<RankedTensorType>(v.getType()).getShape();
    auto sameShape = [&](Type t) {
      auto tensor = dyn_cast<RankedTensorType>(t);
      return !tensor || tensor.getShape() == shape;
    };
    for (Operation *user : v.getUsers())
      if (user->getNumRegions() == 0 && !isa<tt::TransOp, tt::ReshapeOp>(user) &&
          user->getNumResults() == 1 && llvm::all_of(user->getOperandTypes(), sameShape) &&
          isa<RankedTensorType>(user->getResult(0).getType()) &&
          sameShape(user->getResult(0).getType()))
        spread(v, user->getResult(0));
    Operation *def = v.getDefiningOp();
    if (auto forOp = dyn_cast<scf::ForOp>(def)) {
      spread(v, forOp.getRegionIterArgs()[cast<OpResult>(v).getResultNumber()]);
      continue;
    }
    if (def->getNumRegions() || isa<tt::TransOp, tt::ReshapeOp>(def))
      continue;
    if (llvm::all_of(def->getOperandTypes(), sameShape) || isa<tt::BroadcastOp>(def))
      for (Value operand : def->getOperands())
        spread(v, operand);
  }
}

LogicalResult ConvertFromTTIRPass::retypeResults(Operation *op) {
  enter(op);
  // Layouts derived from an operand's.
  if (auto reduce = dyn_cast<tt::ReduceOp>(op)) {
    RankedTensorType srcType = scannedOperandType(op);
    for (Value result : reduce.getResults())
      if (auto tensor = dyn_cast<RankedTensorType>(result.getType()))
        result.setType(tensor.cloneWithEncoding(SliceEncodingAttr::get(
                              &getContext(), reduce.getAxis(),
                              cast<DistributedEncodingInterface>(srcType.getEncoding()))));
    return success();
  }
  if (auto explicitOp = dyn_cast<ExplicitLayoutOpInterface>(op))
    return explicitOp.assignLayouts(warps, threadsPerWarp, ctas);
  if (isa<tt::ScanOp>(op)) {
    RankedTensorType srcType = scannedOperandType(op);
    for (Value result : op->getResults())
      result.setType(withEncodingOf(result.getType(), srcType));
    return success();
  }
  if (isa<tt::BroadcastOp>(op)) {
    for (Value result : op->getResults())
      result.setType(withEncodingOf(result.getType(), op->getOperand(0).getType()));
    return success();
  }
  // A join's operands get their default layout (convertOperands), its
  // result that layout with the pair in each thread's registers.
  if (auto join = dyn_cast<tt::JoinOp>(op)) {
    auto half = cast<RankedTensorType>(convert(
        cast<RankedTensorType>(join.getLhs().getType()).cloneWithEncoding({})));
    join.getResult().setType(join.getType().cloneWithEncoding(
        withPairDimension(cast<BlockedEncodingAttr>(half.getEncoding()))));
    return success();
  }
  if (auto cat = dyn_cast<tt::CatOp>(op)) {
    cat.getResult().setType(catResultType(cast<RankedTensorType>(convertValue(cat.getResult())),
                                          cast<RankedTensorType>(cat.getLhs().getType()),
                                          cast<RankedTensorType>(cat.getRhs().getType())));
    return success();
  }
  if (auto trans = dyn_cast<tt::TransOp>(op)) {
    auto srcType = cast<RankedTensorType>(trans.getSrc().getType());
    auto blocked = dyn_cast<BlockedEncodingAttr>(srcType.getEncoding());
    if (!blocked) {
      // Transpose from the default layout of the source.
      srcType = cast<RankedTensorType>(convert(srcType.cloneWithEncoding({})));
      blocked = cast<BlockedEncodingAttr>(srcType.getEncoding());
    }
    trans.getResult().setType(trans.getType().cloneWithEncoding(
                                     transposeBlocked(blocked, trans.getOrder())));
    return success();
  }
  for (Value result : op->getResults())
    result.setType(convertValue(result));
  // Constants carry their type twice.
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    auto tensor = dyn_cast<RankedTensorType>(cst.getType());
    if (tensor && tensor.getEncoding()) {
      auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
      if (!dense)
        return op->emitError("unsupported tensor constant (only dense constants are)");
      cst.setValueAttr(dense.reshape(tensor));
    }
  }
  // Region arguments that mirror results (loop-carried values) get the
  // same types; other tensor arguments their default layout.
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    for (auto [arg, result] : llvm::zip(forOp.getRegionIterArgs(), forOp.getResults())) {
      if (Type carried = carriedLayouts.lookup(result))
        result.setType(carried);
      arg.setType(result.getType());
    }
    return success();
  }
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        arg.setType(convertValue(arg));
  return success();
}

bool ConvertFromTTIRPass::findCarriedLayouts(ModuleOp module) {
  bool found = false;
  module.walk([&](scf::ForOp loop) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [yielded, result] : llvm::zip(yield.getOperands(), loop.getResults())) {
      Operation *def = yielded.getDefiningOp();
      bool forced = def && (isa<ExplicitLayoutOpInterface>(def) ||
                            (isa<scf::ForOp>(def) && carriedLayouts.count(yielded)));
      if (!forced || yielded.getType() == result.getType() || carriedLayouts.count(result))
        continue;
      carriedLayouts[result] = yielded.getType();
      found = true;
    }
  });
  return found;
}

/// `type` without its layout.
static Type withoutLayout(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getEncoding() ? tensor.cloneWithEncoding({}) : type;
}

LogicalResult ConvertFromTTIRPass::convertOperands(Operation *op) {
  enter(op);
  // The type each operand must have, given the (new) types around it.
  auto required = [&](unsigned i) -> Type {
    Value operand = op->getOperand(i);
    auto tensor = dyn_cast<RankedTensorType>(operand.getType());
    if (!tensor)
      return operand.getType();
    if (auto explicitOp = dyn_cast<ExplicitLayoutOpInterface>(op))
      return explicitOp.requiredOperandType(i);
    if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      Operation *parent = op->getParentOp();
      if (auto whileOp = dyn_cast<scf::WhileOp>(parent))
        return whileOp.getBeforeArguments()[i].getType();
      return parent->getResult(i).getType();
    }
    if (auto cond = dyn_cast<scf::ConditionOp>(op))
      return i == 0 ? operand.getType() : cond->getParentOp()->getResult(i - 1).getType();
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return i < 3 ? operand.getType() : forOp.getRegionIterArgs()[i - 3].getType();
    if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      return whileOp.getBeforeArguments()[i].getType();
    if (isa<tt::ReturnOp>(op))
      return op->getParentOfType<tt::FuncOp>().getResultTypes()[i];
    if (auto expand = dyn_cast<tt::ExpandDimsOp>(op))
      return tensor.cloneWithEncoding(SliceEncodingAttr::get(
          &getContext(), expand.getAxis(),
          cast<DistributedEncodingInterface>(expand.getType().getEncoding())));
    if (isa<tt::ReduceOp, tt::ScanOp>(op))
      return withEncodingOf(tensor, scannedOperandType(op));
    if (isa<tt::BroadcastOp, tt::TransOp>(op))
      return tensor;
    // A split's results have their default layout; its operand holds each
    // pair in one thread, so that the split moves no data.
    if (auto split = dyn_cast<tt::SplitOp>(op))
      return tensor.cloneWithEncoding(withPairDimension(
          cast<BlockedEncodingAttr>(cast<RankedTensorType>(split.getOutLHS().getType()).getEncoding())));
    // A dot's operands are in the FMA operand layouts of its result's, as
    // Triton writes them; accelerate-matmul may choose tensor cores later.
    if (auto dot = dyn_cast<tt::DotOp>(op); dot && i < 2)
      return tensor.cloneWithEncoding(DotOperandEncodingAttr::get(
          &getContext(), i, cast<DistributedEncodingInterface>(dot.getType().getEncoding()),
          /*kWidth=*/0));
    if (auto call = dyn_cast<tt::CallOp>(op)) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<tt::FuncOp>(op, call.getCalleeAttr());
      return callee ? callee.getArgumentTypes()[i] : tensor;
    }
    // An elementwise op computes in its result's layout.
    if (op->getNumResults() == 1)
      if (auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
          result && result.getShape() == tensor.getShape() && result.getEncoding())
        return tensor.cloneWithEncoding(result.getEncoding());
    // Otherwise (a store's operands) one layout for all: the split a
    // product planned for any of them, else the default one, whole along
    // what any of them must keep whole.
    uint64_t axes = 0;
    ArrayRef<int32_t> planned;
    for (Value other : op->getOperands())
      if (auto t = dyn_cast<RankedTensorType>(other.getType()); t && t.getShape() == tensor.getShape()) {
        axes |= wholeAxes.lookup(other);
        if (auto it = plannedCGA.find(other); it != plannedCGA.end() && planned.empty())
          planned = it->second;
      }
    return convertSplit(tensor.cloneWithEncoding({}), axes, planned);
  };
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i) {
    Value operand = op->getOperand(i);
    Type type = required(i);
    if (operand.getType() == type)
      continue;
    OpBuilder builder(op);
    op->setOperand(i, ConvertLayoutOp::create(builder, op->getLoc(), type, operand));
  }
  return success();
}

void ConvertFromTTIRPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  auto fail = [&](const Twine &message) {
    module.emitError() << "ttgir-convert-from-ttir: " << message;
    signalPassFailure();
  };
  if (!llvm::isPowerOf2_32(numWarps) || !llvm::isPowerOf2_32(threadsPerWarp) || numCTAs < 1)
    return fail("num-warps and threads-per-warp must be powers of two, num-ctas positive");
  if (!llvm::isPowerOf2_32(numCTAs))
    return fail("num-ctas must be a power of two");
  if (auto parsed = kiln::Target::parse(target); !parsed) {
    llvm::consumeError(parsed.takeError()); // the message below says what is wrong
    return fail("invalid target '" + target + "' (expected cuda:<capability> or hip:<arch>)");
  }
  bool hasLayouts = false;
  module.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type); tensor && tensor.getEncoding())
        hasLayouts = true;
  });
  if (hasLayouts)
    return fail("the module already has layouts (is it TTGIR?)");
  // Buffers made before layouts (a plugin's, such as hwx's) are one CTA's:
  // in a cluster, each CTA then runs the program alone, with one-CTA
  // layouts (ttg.num-ctas 1) and the cluster's size in ttg.cluster-ctas,
  // if the kernel was written so (it tells its CTAs apart).
  ctas = unsigned(numCTAs);
  bool lone = module->removeAttr(TritonGPUDialect::kLoneCTAsAttr) != nullptr;
  WalkResult buffers = module.walk([&](Operation *op) {
    for (Type type : op->getResultTypes()) {
      auto memdesc = dyn_cast<MemDescType>(type);
      auto layout = memdesc ? dyn_cast<LayoutEncodingInterface>(memdesc.getEncoding()) : nullptr;
      if (!layout || layout.getNumCTAs() != 1 || numCTAs == 1)
        continue;
      if (!lone) {
        op->emitError() << "this shared-memory buffer, made before layouts (by a plugin op such "
                           "as hwx's), belongs to one CTA: a kernel with such buffers runs in "
                           "clusters of "
                        << int(numCTAs)
                        << " CTAs only if it tells them apart (hwx.cluster_cta_rank, "
                           "hwx.remote, hwx.cluster_barrier, a multicast); otherwise compile "
                           "with num_ctas=1";
        return WalkResult::interrupt();
      }
      ctas = 1;
    }
    return WalkResult::advance();
  });
  if (buffers.wasInterrupted())
    return signalPassFailure();
  Builder b(ctx);
  module->setAttr("ttg.num-warps", b.getI32IntegerAttr(numWarps));
  module->setAttr("ttg.num-ctas", b.getI32IntegerAttr(ctas));
  if (ctas != unsigned(numCTAs))
    module->setAttr(TritonGPUDialect::kClusterCTAsAttr, b.getI32IntegerAttr(numCTAs));
  module->setAttr("ttg.target", b.getStringAttr(target));
  module->setAttr("ttg.threads-per-warp", b.getI32IntegerAttr(threadsPerWarp));

  warps = numWarps;
  if (ctas > 1)
    findWholeAxes(module);
  // Signatures first, so that calls and returns see the new types.
  for (auto func : module.getOps<tt::FuncOp>()) {
    SmallVector<Type> inputs, results;
    for (Type type : func.getArgumentTypes())
      inputs.push_back(convert(type));
    for (Type type : func.getResultTypes())
      results.push_back(convert(type));
    func.setFunctionType(FunctionType::get(ctx, inputs, results));
    if (!func.isExternal())
      for (auto [arg, type] : llvm::zip(func.getArguments(), inputs))
        arg.setType(type);
  }
  // Defining ops come before their users in a pre-order walk. Retyping
  // only sets types, so it is redone from TTIR's types while loops turn
  // out to carry explicit layouts (nested loops: once per level).
  auto retypeAll = [&] {
    return !module
                .walk<WalkOrder::PreOrder>([&](Operation *op) {
                  if (isa<tt::FuncOp, ModuleOp>(op))
                    return WalkResult::advance();
                  return failed(retypeResults(op)) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
                })
                .wasInterrupted();
  };
  if (!retypeAll())
    return signalPassFailure();
  while (findCarriedLayouts(module)) {
    module.walk([&](Operation *op) {
      if (isa<tt::FuncOp, ModuleOp>(op))
        return;
      for (Value result : op->getResults())
        result.setType(withoutLayout(result.getType()));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(withoutLayout(arg.getType()));
    });
    if (!retypeAll())
      return signalPassFailure();
  }
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (!isa<tt::FuncOp, ModuleOp, ConvertLayoutOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops)
    if (failed(convertOperands(op)))
      return signalPassFailure();
}

} // namespace

//===- Pipeline.cpp - the ttgir-pipeline pass -----------------------------===//
//
// Software pipelining of dot loops: the global loads feeding a dot become
// cp.async copies into a ring of num_stages shared-memory buffers, issued
// num_stages - 1 iterations ahead, so that the loads of later iterations
// overlap the dots of earlier ones. Follows what Triton 3.6's
// tritongpu-pipeline produces for cp.async (two stages: the copies and
// their address computation, then everything else).
//
// For a loop  for i in [lb, ub) step s { body(i, args) }  with S stages:
//   prologue: copies of iterations 0 .. S-2 into slots 0 .. S-2
//   iteration i: wait for its copies (each where first read), read slot
//                i mod S, run the body,
//                then copy iteration i+S-1 into slot (i+S-1) mod S
//   epilogue: wait for every copy (the last S-1 are predicated off), free.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/NVIDIA/Transforms/Passes.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"

#include "kiln/Analysis/AccessWidth.h"
#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ttgir-pipeline"

namespace kiln::nvidia {
#define GEN_PASS_DEF_PIPELINE
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"
} // namespace kiln::nvidia

using namespace mlir;
using namespace kiln;
using namespace kiln::ttg;

namespace {

/// A load that feeds a dot and becomes cp.async copies into a ring.
struct StreamedLoad {
  tt::LoadOp load;
  /// Elements each thread copies at once.
  unsigned vec = 1;
  /// One slot (mutable) and the whole ring.
  MemDescType slotType, ringType;
  /// The ops the slot replaces: local_allocs (the dot reads the slot) or
  /// conversions to a dot operand layout (a local_load of the slot).
  SmallVector<Operation *> users;
  Value ring;
};

struct LoopPlan {
  scf::ForOp loop;
  unsigned numStages = 0;
  SmallVector<StreamedLoad> loads;
  /// The pure ops of the body the copies' pointers and masks depend on,
  /// with the updates of the loop-carried values they read, in body order.
  SmallVector<Operation *> addressOps;
  /// The iteration arguments those ops read (the copies need them
  /// num_stages - 1 iterations ahead).
  SmallVector<unsigned> carried;
  /// Of those, the ones nothing but the copies' address computation needs:
  /// the new loop carries only their advanced value, in their own place.
  llvm::SmallDenseSet<unsigned> advancedOnly;
  /// wgmma ops that may leave one dot in flight (see the pass description).
  llvm::SmallDenseSet<Operation *> keepOneInFlight;
  /// wgmma ops whose result is waited for only in the next iteration, by
  /// the wait of an earlier dot there (attention's P @ V, waited for with
  /// the next Q @ K), and for each waiting dot the iteration arguments it
  /// also waits for.
  llvm::SmallDenseSet<Operation *> deferred;
  llvm::DenseMap<Operation *, SmallVector<unsigned>> alsoWaitsFor;
};

bool isPureLeaf(Operation *op) { return op->getNumRegions() == 0 && isMemoryEffectFree(op); }

/// Whether `other` is known to be +0 everywhere (what cp.async writes for
/// masked elements).
bool isZero(Value other) {
  return matchPattern(other, m_Zero()) || matchPattern(other, m_PosZeroFloat());
}

/// The `#ttg.swizzled_shared` layout Triton gives an mma operand in shared
/// memory that is read into `dotEnc`: rows of `vec` elements, the swizzle
/// phase advancing every 128 bytes, over as many phases as one ldmatrix
/// tile has rows, so that the 8 rows an ldmatrix reads hit distinct banks.
SwizzledSharedEncodingAttr sharedForDotOperand(DotOperandEncodingAttr dotEnc,
                                               ArrayRef<int64_t> shape,
                                               ArrayRef<unsigned> order, unsigned bits) {
  unsigned rank = shape.size(), kWidth = dotEnc.getKWidth();
  int64_t rowBytesish = std::max<int64_t>(1, shape[order[0]] * 4 / kWidth);
  unsigned perPhase = std::max<int64_t>(1, 128 / rowBytesish);
  unsigned vecWidth = 32 / bits;
  // Mixed widths read along the non-K dimension need twice the phases.
  unsigned nonK = dotEnc.getOpIdx() == 0 ? 0 : 1;
  if (vecWidth != kWidth && order[0] == nonK)
    perPhase = std::max(perPhase, 2 * vecWidth);
  // One ldmatrix tile: 8 rows of the non-K dimension, 4 * kWidth along K.
  unsigned tileK = 4 * kWidth, tileMN = 8;
  bool kContiguous = dotEnc.getOpIdx() == 0 ? order[0] == rank - 1 : order[0] == rank - 2;
  unsigned vec = kContiguous ? tileK : tileMN;
  unsigned stride = kContiguous ? tileMN : tileK;
  unsigned maxPhase = std::max(1u, stride / perPhase);
  return SwizzledSharedEncodingAttr::get(dotEnc.getContext(), vec, perPhase, maxPhase, order);
}

/// Adds to `plan` the ops of the loop body that `roots` are computed by,
/// and, for every iteration argument reached, the computation of its next
/// value. False if any of them is not a pure op without regions.
bool collectAddressOps(LoopPlan &plan, ValueRange roots, llvm::SetVector<Operation *> &ops,
                       llvm::SetVector<unsigned> &carried) {
  scf::ForOp loop = plan.loop;
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<Value> work(roots.begin(), roots.end());
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() != body || arg == loop.getInductionVar())
        continue;
      unsigned index = arg.getArgNumber() - 1;
      if (carried.insert(index))
        work.push_back(yield.getOperand(index));
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (def->getBlock() != body || ops.contains(def))
      continue;
    if (!isPureLeaf(def))
      return false;
    ops.insert(def);
    llvm::append_range(work, def->getOperands());
  }
  return true;
}

/// The op that defines a dot's shared operand, through a transposed view.
Operation *viewedDef(Value operand) {
  if (auto trans = operand.getDefiningOp<MemDescTransOp>())
    operand = trans.getSrc();
  return operand.getDefiningOp();
}

/// Finds the streamed load behind a dot operand, if any.
tt::LoadOp loadBehind(Value operand, Block *body) {
  Operation *def = viewedDef(operand);
  if (!def || def->getBlock() != body)
    return {};
  Value src;
  if (auto alloc = dyn_cast<LocalAllocOp>(def))
    src = alloc.getSrc();
  else if (auto cvt = dyn_cast<ConvertLayoutOp>(def))
    if (isa_and_nonnull<DotOperandEncodingAttr>(cvt.getType().getEncoding()))
      src = cvt.getSrc();
  auto load = src ? src.getDefiningOp<tt::LoadOp>() : nullptr;
  return load && load->getBlock() == body ? load : nullptr;
}

/// Checks that `load` can be streamed and works out its ring.
std::optional<StreamedLoad> planLoad(tt::LoadOp load, unsigned numStages,
                                     const AxisInfoAnalysis &axes) {
  auto reject = [&](const char *why) -> std::optional<StreamedLoad> {
    LLVM_DEBUG(llvm::dbgs() << "ttgir-pipeline: " << load << " stays synchronous: " << why
                            << "\n");
    return std::nullopt;
  };
  auto ptrType = dyn_cast<RankedTensorType>(load.getPtr().getType());
  if (!ptrType || !isa<tt::PointerType>(ptrType.getElementType()))
    return reject("not a tensor of pointers");
  if (load.getIsVolatile())
    return reject("volatile");
  if (load.getOther() && !isZero(load.getOther()))
    return reject("`other` is not zero");
  auto resultType = cast<RankedTensorType>(load.getType());
  Type elem = resultType.getElementType();
  if (!elem.isIntOrFloat())
    return reject("not an integer or float");
  unsigned bits = elem.getIntOrFloatBitWidth();
  StreamedLoad streamed;
  streamed.load = load;
  streamed.vec = lowering::accessVectorWidth(axes, load.getPtr(), load.getMask());
  if (streamed.vec * bits < 32)
    return reject("fewer than 4 contiguous bytes per thread");

  Attribute encoding;
  bool viaRegisters = false;
  for (Operation *user : load->getUsers()) {
    Attribute userEncoding;
    bool userViaRegisters = false;
    if (auto alloc = dyn_cast<LocalAllocOp>(user)) {
      userEncoding = alloc.getType().getEncoding();
    } else if (auto cvt = dyn_cast<ConvertLayoutOp>(user)) {
      auto dotEnc = dyn_cast<DotOperandEncodingAttr>(cvt.getType().getEncoding());
      if (!dotEnc)
        return reject("used by a conversion to a layout other than a dot operand");
      SmallVector<unsigned> order;
      if (auto blocked = dyn_cast<BlockedEncodingAttr>(resultType.getEncoding()))
        llvm::append_range(order, blocked.getOrder());
      else
        for (unsigned d = resultType.getRank(); d-- > 0;)
          order.push_back(d);
      userEncoding = sharedForDotOperand(dotEnc, resultType.getShape(), order, bits);
      userViaRegisters = true;
    } else {
      return reject("used by something other than a local_alloc or dot operand conversion");
    }
    if (user->getBlock() != load->getBlock())
      return reject("used in another block");
    if (encoding && (encoding != userEncoding || viaRegisters != userViaRegisters))
      return reject("users disagree on the shared layout");
    encoding = userEncoding;
    viaRegisters = userViaRegisters;
    streamed.users.push_back(user);
  }
  if (streamed.users.empty())
    return reject("unused");
  MLIRContext *ctx = load.getContext();
  Attribute smem = SharedMemorySpaceAttr::get(ctx);
  streamed.slotType = MemDescType::get(resultType.getShape(), elem, encoding, smem, true);
  SmallVector<int64_t> ringShape{int64_t(numStages)};
  llvm::append_range(ringShape, resultType.getShape());
  streamed.ringType = MemDescType::get(ringShape, elem, encoding, smem, true);
  return streamed;
}

/// The iteration arguments of `advanced` (loop-carried values the copies
/// read) whose loop result is unused and whose current value feeds only
/// the address computation of the streamed loads and their own updates.
void findAdvancedOnly(LoopPlan &plan) {
  scf::ForOp loop = plan.loop;
  Block *body = loop.getBody();
  llvm::SmallPtrSet<Operation *, 8> loads;
  for (StreamedLoad &s : plan.loads)
    loads.insert(s.load);
  llvm::SmallDenseSet<unsigned> candidates;
  for (unsigned k : plan.carried)
    if (loop.getResult(k).use_empty())
      candidates.insert(k);
  auto feedsOnlyAddresses = [&](unsigned k) {
    SmallVector<Value> work{loop.getRegionIterArgs()[k]};
    llvm::SmallPtrSet<Operation *, 16> seen;
    while (!work.empty()) {
      Value value = work.pop_back_val();
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        if (loads.contains(user))
          continue;
        if (isa<scf::YieldOp>(user) && user->getBlock() == body) {
          if (!candidates.contains(use.getOperandNumber()))
            return false;
          continue;
        }
        if (user->getBlock() != body || !isPureLeaf(user))
          return false;
        if (seen.insert(user).second)
          llvm::append_range(work, user->getResults());
      }
    }
    return true;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned k : plan.carried)
      if (candidates.contains(k) && !feedsOnlyAddresses(k)) {
        candidates.erase(k);
        changed = true;
      }
  }
  plan.advancedOnly = std::move(candidates);
}

/// Whether a wgmma may stay in flight until the next iteration's dot: the
/// loop's only dot, reading only ring slots and loop invariants from
/// shared memory, with its result feeding only the next accumulator.
bool mayKeepOneInFlight(LoopPlan &plan, ttng::WarpGroupDotOp dot, unsigned numDots) {
  scf::ForOp loop = plan.loop;
  if (numDots != 1 || !isa<MemDescType>(dot.getA().getType()))
    return false;
  for (Value operand : {Value(dot.getA()), Value(dot.getB())}) {
    bool fromRing = llvm::any_of(plan.loads, [&](StreamedLoad &s) {
      return llvm::is_contained(s.users, viewedDef(operand));
    });
    if (!fromRing && !loop.isDefinedOutsideOfLoop(operand))
      return false;
  }
  Value d = dot.getD();
  if (!d.hasOneUse() || !isa<scf::YieldOp>(*d.getUsers().begin()))
    return false;
  unsigned index = d.getUses().begin()->getOperandNumber();
  BlockArgument acc = loop.getRegionIterArgs()[index];
  return acc.hasOneUse() && dot.getC() == acc;
}

/// A wgmma whose result only becomes the next iteration's value of an
/// argument that nothing reads before an earlier wgmma of the body has
/// waited need not be waited for in its own iteration: that earlier wait
/// also retires it, so it overlaps with the next iteration's first product.
void findDeferredWaits(LoopPlan &plan) {
  scf::ForOp loop = plan.loop;
  Block *body = loop.getBody();
  Operation *first = nullptr;
  for (Operation &op : *body) {
    auto dot = dyn_cast<ttng::WarpGroupDotOp>(op);
    if (!dot || plan.keepOneInFlight.contains(dot))
      continue;
    if (!first) {
      first = dot;
      continue;
    }
    Value d = dot.getD();
    if (!d.hasOneUse() || !isa<scf::YieldOp>(*d.getUsers().begin()))
      continue;
    // Its shared operands must outlive the next iteration's first wait: ring
    // slots (refilled only S - 1 iterations later) or loop invariants, not
    // buffers the body writes again before that wait.
    bool operandsStay = llvm::all_of(
        SmallVector<Value, 2>{dot.getA(), dot.getB()}, [&](Value operand) {
          return !isa<MemDescType>(operand.getType()) || loop.isDefinedOutsideOfLoop(operand) ||
                 llvm::any_of(plan.loads, [&](StreamedLoad &s) {
                   return llvm::is_contained(s.users, viewedDef(operand));
                 });
        });
    if (!operandsStay)
      continue;
    unsigned index = d.getUses().begin()->getOperandNumber();
    BlockArgument arg = loop.getRegionIterArgs()[index];
    bool readLate = llvm::all_of(arg.getUsers(), [&](Operation *user) {
      Operation *inBody = body->findAncestorOpInBlock(*user);
      return inBody && first->isBeforeInBlock(inBody);
    });
    if (!readLate)
      continue;
    plan.deferred.insert(dot);
    plan.alsoWaitsFor[first].push_back(index);
  }
}

std::optional<LoopPlan> planLoop(scf::ForOp loop, unsigned numStages,
                                 const AxisInfoAnalysis &axes) {
  LoopPlan plan;
  plan.loop = loop;
  plan.numStages = numStages;
  Block *body = loop.getBody();
  llvm::SetVector<Operation *> candidates;
  unsigned numWgmma = 0;
  for (Operation &op : *body) {
    SmallVector<Value, 2> operands;
    if (auto dot = dyn_cast<tt::DotOp>(op)) {
      auto mma = dyn_cast<NvidiaMmaEncodingAttr>(
          cast<RankedTensorType>(dot.getType()).getEncoding());
      if (!mma || mma.getVersionMajor() != 2)
        continue;
      operands = {dot.getA(), dot.getB()};
    } else if (auto dot = dyn_cast<ttng::WarpGroupDotOp>(op)) {
      ++numWgmma;
      operands = {dot.getA(), dot.getB()};
    }
    for (Value operand : operands)
      if (tt::LoadOp load = loadBehind(operand, body))
        candidates.insert(load);
  }
  llvm::SetVector<Operation *> ops;
  llvm::SetVector<unsigned> carried;
  for (Operation *op : candidates) {
    auto load = cast<tt::LoadOp>(op);
    std::optional<StreamedLoad> streamed = planLoad(load, numStages, axes);
    if (!streamed)
      continue;
    // Each load's address computation is checked on its own, so that one
    // load computed from loaded data leaves the others pipelined.
    llvm::SetVector<Operation *> loadOps = ops;
    llvm::SetVector<unsigned> loadCarried = carried;
    SmallVector<Value, 2> roots{load.getPtr()};
    if (load.getMask())
      roots.push_back(load.getMask());
    if (!collectAddressOps(plan, roots, loadOps, loadCarried)) {
      LLVM_DEBUG(llvm::dbgs() << "ttgir-pipeline: " << load
                              << " stays synchronous: its address is not pure arithmetic\n");
      continue;
    }
    ops = std::move(loadOps);
    carried = std::move(loadCarried);
    plan.loads.push_back(std::move(*streamed));
  }
  if (plan.loads.empty())
    return std::nullopt;
  for (Operation &op : *body)
    if (ops.contains(&op))
      plan.addressOps.push_back(&op);
  plan.carried.assign(carried.begin(), carried.end());
  llvm::sort(plan.carried);
  findAdvancedOnly(plan);
  for (Operation &op : *body)
    if (auto dot = dyn_cast<ttng::WarpGroupDotOp>(op))
      if (mayKeepOneInFlight(plan, dot, numWgmma))
        plan.keepOneInFlight.insert(dot);
  findDeferredWaits(plan);
  return plan;
}

/// Erases the unused pure ops in [begin, end), users before their operands.
void eraseDeadOps(Block::iterator begin, Block::iterator end) {
  SmallVector<Operation *> ops;
  for (auto it = begin; it != end; ++it)
    ops.push_back(&*it);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
}

/// Rewrites one loop as its plan says.
class LoopPipeliner {
public:
  explicit LoopPipeliner(LoopPlan &plan)
      : plan(plan), loop(plan.loop), loc(loop.getLoc()), builder(loop), constants(loop) {}
  void run();

private:
  /// A constant, created once before the loop.
  Value constant(Type type, int64_t value) {
    Value &cached = constantCache[{type, value}];
    if (!cached)
      cached = arith::ConstantOp::create(constants, loc, constants.getIntegerAttr(type, value));
    return cached;
  }
  /// `step` times `times`.
  Value scaled(Value step, int64_t times) {
    if (times == 1)
      return step;
    return arith::MulIOp::create(builder, loc, step, constant(step.getType(), times));
  }
  Value slotConstant(int64_t value) { return constant(builder.getI32Type(), value); }
  /// The next slot of the ring after `slot`.
  Value nextSlot(Value slot);
  /// Clones the address computation through `map` and issues one commit
  /// group of copies into slot `slot`, enabled where `pred` holds.
  void issueCopies(IRMapping &map, Value slot, Value pred);
  /// Clones the body of the loop into `newLoop`'s, the streamed loads
  /// replaced by reads of slot `slot`.
  void cloneBody(scf::ForOp newLoop, IRMapping &map, Value slot);

  LoopPlan &plan;
  scf::ForOp loop;
  Location loc;
  OpBuilder builder, constants;
  DenseMap<std::pair<Type, int64_t>, Value> constantCache;
};

Value LoopPipeliner::nextSlot(Value slot) {
  Value next = arith::AddIOp::create(builder, loc, slot, slotConstant(1));
  Value wraps = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge, next,
                                      slotConstant(plan.numStages));
  return arith::SelectOp::create(builder, loc, wraps, slotConstant(0), next);
}

void LoopPipeliner::issueCopies(IRMapping &map, Value slot, Value pred) {
  for (Operation *op : plan.addressOps)
    builder.clone(*op, map);
  SmallVector<Value> tokens;
  for (StreamedLoad &streamed : plan.loads) {
    tt::LoadOp load = streamed.load;
    Value ptr = map.lookupOrDefault(load.getPtr());
    auto ptrType = cast<RankedTensorType>(ptr.getType());
    Value mask = tt::SplatOp::create(builder, loc, ptrType.clone(builder.getI1Type()), pred);
    if (load.getMask())
      mask = arith::AndIOp::create(builder, loc, map.lookupOrDefault(load.getMask()), mask);
    Value buffer = MemDescIndexOp::create(builder, loc, streamed.slotType, streamed.ring, slot);
    // No `other`: it is zero, which is what cp.async writes where the mask is off.
    auto copy = AsyncCopyGlobalToLocalOp::create(builder, loc, ptr, buffer, mask, Value(),
                                                 load.getCache(), load.getEvict(),
                                                 /*isVolatile=*/false, streamed.vec);
    // One group per load, so that each operand is waited for only where it
    // is first read (attention's V while its Q @ K runs).
    AsyncCommitGroupOp::create(builder, loc, ValueRange{copy.getToken()});
  }
}

void LoopPipeliner::cloneBody(scf::ForOp newLoop, IRMapping &map, Value slot) {
  unsigned numStages = plan.numStages;
  unsigned numLoads = plan.loads.size();
  DenseMap<Operation *, Value> views;
  DenseMap<Operation *, unsigned> loadOf;
  llvm::SmallPtrSet<Operation *, 8> skipped;
  for (auto [j, streamed] : llvm::enumerate(plan.loads)) {
    Value view = MemDescIndexOp::create(builder, loc, streamed.slotType, streamed.ring, slot);
    skipped.insert(streamed.load);
    for (Operation *user : streamed.users) {
      views[user] = view;
      loadOf[user] = unsigned(j);
    }
  }
  // Load j's group of iteration i is complete once at most the groups
  // committed after it are pending: the iteration's later loads' and those
  // of the S - 2 iterations issued ahead (each iteration commits one group
  // per load). Each load is waited for where its value is first read.
  DenseMap<unsigned, Value> waitOf;
  auto waitFor = [&](unsigned j) -> Value {
    if (Value token = waitOf.lookup(j))
      return token;
    unsigned pending = (numLoads - 1 - j) + numLoads * (numStages - 2);
    // Reads right after one another share one wait, for the later load.
    Block *block = builder.getInsertionBlock();
    auto last = block->empty() ? AsyncWaitOp() : dyn_cast<AsyncWaitOp>(block->back());
    if (last && llvm::is_contained(llvm::make_second_range(waitOf), last.getRetToken())) {
      last.setNum(std::min<int32_t>(last.getNum(), pending));
      waitOf[j] = last.getRetToken();
      return last.getRetToken();
    }
    Value token = AsyncWaitOp::create(builder, loc, ValueRange(), pending).getRetToken();
    waitOf[j] = token;
    return token;
  };
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (skipped.contains(&op))
      continue;
    if (auto it = views.find(&op); it != views.end()) {
      Value read = it->second;
      Value token = waitFor(loadOf.lookup(&op));
      if (auto cvt = dyn_cast<ConvertLayoutOp>(op))
        read = LocalLoadOp::create(builder, loc, cvt.getType(), read, token);
      map.map(op.getResult(0), read);
      continue;
    }
    auto dot = dyn_cast<ttng::WarpGroupDotOp>(op);
    bool readsRing = dot && (views.contains(viewedDef(dot.getA())) ||
                             views.contains(viewedDef(dot.getB())));
    // cp.async writes through the generic proxy, wgmma reads through the
    // async one.
    if (readsRing && !isa<ttng::FenceAsyncSharedOp>(builder.getInsertionBlock()->back()))
      ttng::FenceAsyncSharedOp::create(builder, loc, false);
    Operation *clone = builder.clone(op, map);
    if (auto trans = dyn_cast<MemDescTransOp>(clone);
        trans && isa<NVMMASharedEncodingAttr>(trans.getSrc().getType().getEncoding()) &&
        trans.getOrder() == ArrayRef<int32_t>{1, 0})
      trans.getResult().setType(transposedType(trans.getSrc().getType(), trans.getOrder()));
    if (!dot)
      continue;
    auto asyncDot = cast<ttng::WarpGroupDotOp>(clone);
    asyncDot.setIsAsync(true);
    if (plan.deferred.contains(dot)) {
      map.map(dot.getD(), asyncDot.getD());
      continue;
    }
    SmallVector<Value> waited{asyncDot.getD()};
    for (Value operand : {Value(asyncDot.getA()), Value(asyncDot.getB())})
      if (isa<MemDescType>(operand.getType()))
        waited.push_back(operand);
    SmallVector<unsigned> later = plan.alsoWaitsFor.lookup(dot);
    for (unsigned index : later)
      waited.push_back(map.lookup(loop.getRegionIterArgs()[index]));
    unsigned pendings = plan.keepOneInFlight.contains(dot) ? 1 : 0;
    auto dotWait = ttng::WarpGroupDotWaitOp::create(builder, loc, waited, pendings);
    map.map(dot.getD(), dotWait.getResult(0));
    for (auto [i, index] : llvm::enumerate(later))
      map.map(loop.getRegionIterArgs()[index], dotWait.getResult(waited.size() - later.size() + i));
  }
}

void LoopPipeliner::run() {
  unsigned numStages = plan.numStages;
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(), step = loop.getStep();
  bool isUnsigned = loop.getUnsignedCmp();
  Operation *firstNew = nullptr;
  for (StreamedLoad &streamed : plan.loads) {
    streamed.ring = LocalAllocOp::create(builder, loc, streamed.ringType, Value(), IntegerAttr());
    if (!firstNew)
      firstNew = streamed.ring.getDefiningOp();
  }
  // Constants go before everything this rewrite adds.
  constants.setInsertionPoint(firstNew);

  // Prologue: iterations 0 .. S-2. Iteration j exists iff lb < ub and
  // ub - lb > j * step, the difference taken unsigned (exact once lb < ub,
  // for signed and unsigned loops alike, so nothing overflows).
  Value anyIteration = arith::CmpIOp::create(
      builder, loc, isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt, lb, ub);
  Value span = arith::SubIOp::create(builder, loc, ub, lb);
  SmallVector<Value> carriedValues;
  for (unsigned k : plan.carried)
    carriedValues.push_back(loop.getInitArgs()[k]);
  for (unsigned j = 0; j + 1 < numStages; ++j) {
    IRMapping map;
    Value iv = lb, pred = anyIteration;
    if (j > 0) {
      Value offset = scaled(step, j);
      iv = arith::AddIOp::create(builder, loc, lb, offset);
      Value inRange =
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ugt, span, offset);
      pred = arith::AndIOp::create(builder, loc, anyIteration, inRange);
    }
    map.map(loop.getInductionVar(), iv);
    for (auto [k, value] : llvm::zip(plan.carried, carriedValues))
      map.map(loop.getRegionIterArgs()[k], value);
    issueCopies(map, slotConstant(j), pred);
    for (auto [k, value] : llvm::zip(plan.carried, carriedValues))
      value = map.lookupOrDefault(yield.getOperand(k));
  }
  // The distance to the iteration whose copies an iteration issues.
  Value distance = scaled(step, numStages - 1);

  // The new loop carries the original values (an advanced-only one in its
  // advanced form), the advanced form of the other carried values, then
  // the slot to fill and the slot to read.
  unsigned numArgs = loop.getNumRegionIterArgs();
  SmallVector<Value> inits(loop.getInitArgs());
  DenseMap<unsigned, unsigned> advancedPos;
  for (auto [k, value] : llvm::zip(plan.carried, carriedValues)) {
    if (plan.advancedOnly.contains(k)) {
      inits[k] = value;
      advancedPos[k] = k;
    } else {
      advancedPos[k] = inits.size();
      inits.push_back(value);
    }
  }
  unsigned fillPos = inits.size();
  inits.push_back(slotConstant(numStages - 1));
  inits.push_back(slotConstant(0));
  auto newLoop = scf::ForOp::create(builder, loc, lb, ub, step, inits);
  newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  if (isUnsigned)
    newLoop.setUnsignedCmp(true);
  Block *newBody = newLoop.getBody();
  if (!newBody->empty())
    newBody->getTerminator()->erase();
  builder.setInsertionPointToStart(newBody);
  ValueRange newArgs = newLoop.getRegionIterArgs();
  Value fillSlot = newArgs[fillPos], readSlot = newArgs[fillPos + 1];

  IRMapping current;
  current.map(loop.getInductionVar(), newLoop.getInductionVar());
  for (unsigned i = 0; i < numArgs; ++i)
    current.map(loop.getRegionIterArgs()[i], newArgs[i]);
  cloneBody(newLoop, current, readSlot);

  // Iteration i issues iteration i + S - 1's copies: it exists iff
  // ub - iv > (S - 1) * step, unsigned (iv < ub here).
  IRMapping ahead;
  Value iv = newLoop.getInductionVar();
  ahead.map(loop.getInductionVar(), arith::AddIOp::create(builder, loc, iv, distance));
  for (unsigned k : plan.carried)
    ahead.map(loop.getRegionIterArgs()[k], newArgs[advancedPos[k]]);
  Value left = arith::SubIOp::create(builder, loc, ub, iv);
  Value pred = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ugt, left, distance);
  issueCopies(ahead, fillSlot, pred);

  SmallVector<Value> yields;
  for (unsigned i = 0; i < numArgs; ++i)
    yields.push_back(plan.advancedOnly.contains(i) ? ahead.lookupOrDefault(yield.getOperand(i))
                                                   : current.lookupOrDefault(yield.getOperand(i)));
  for (unsigned k : plan.carried)
    if (!plan.advancedOnly.contains(k))
      yields.push_back(ahead.lookupOrDefault(yield.getOperand(k)));
  yields.push_back(nextSlot(fillSlot));
  yields.push_back(nextSlot(readSlot));
  scf::YieldOp::create(builder, loc, yields);

  // After the loop: retire the dots left in flight before anything reads
  // their results or reuses the ring, then the (empty) last copies.
  builder.setInsertionPointAfter(newLoop);
  for (unsigned i = 0; i < numArgs; ++i) {
    Value result = newLoop.getResult(i);
    auto dotWait = yield.getOperand(i).getDefiningOp<ttng::WarpGroupDotOp>();
    // Even an unused result is waited for: its dot may still read the ring
    // deallocated below.
    if (dotWait && (plan.keepOneInFlight.contains(dotWait) || plan.deferred.contains(dotWait)))
      result = ttng::WarpGroupDotWaitOp::create(builder, loc, ValueRange{result}, 0).getResult(0);
    loop.getResult(i).replaceAllUsesWith(result);
  }
  AsyncWaitOp::create(builder, loc, ValueRange(), 0);
  for (StreamedLoad &streamed : plan.loads)
    LocalDeallocOp::create(builder, loc, streamed.ring);
  loop.erase();

  eraseDeadOps(newBody->begin(), std::prev(newBody->end()));
  eraseDeadOps(firstNew->getIterator(), newLoop->getIterator());
}

constexpr int64_t kMaxStages = 16;

struct PipelinePass : public nvidia::impl::PipelineBase<PipelinePass> {
  using PipelineBase::PipelineBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<std::optional<Target>> target = moduleTarget(module, "ttgir-pipeline");
    // Which targets run it (those with cp.async) is the stage list's choice.
    if (failed(target))
      return signalPassFailure();
    SmallVector<std::pair<scf::ForOp, unsigned>> loops;
    bool failed = false;
    module.walk([&](scf::ForOp loop) {
      int64_t stages = numStages;
      if (Attribute attr = loop->getAttr("tt.num_stages")) {
        auto value = dyn_cast<IntegerAttr>(attr);
        if (!value) {
          loop.emitError("ttgir-pipeline: tt.num_stages must be an integer, got ") << attr;
          failed = true;
          return;
        }
        stages = value.getInt();
      }
      // A ring that deep would not fit any GPU's shared memory.
      if (stages > kMaxStages) {
        loop.emitError("ttgir-pipeline: ") << stages << " stages requested, at most "
                                           << kMaxStages << " supported";
        failed = true;
        return;
      }
      if (stages > 1)
        loops.push_back({loop, unsigned(stages)});
    });
    if (failed)
      return signalPassFailure();
    if (loops.empty())
      return;
    // Every plan is made from the unchanged module's axis info.
    AxisInfoAnalysis axes(module);
    std::vector<LoopPlan> plans;
    for (auto [loop, stages] : loops)
      if (std::optional<LoopPlan> plan = planLoop(loop, stages, axes))
        plans.push_back(std::move(*plan));
    for (LoopPlan &plan : plans)
      LoopPipeliner(plan).run();
  }
};

} // namespace

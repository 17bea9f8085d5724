//===- Pipeline.cpp - the ttgir-pipeline pass -----------------------------===//
//
// Software pipelining of dot loops: the global loads feeding a dot become
// cp.async copies (tt.load) or TMA copies (tt.descriptor_load) into a ring
// of num_stages shared-memory buffers, issued num_stages - 1 iterations
// ahead, so that the loads of later iterations overlap the dots of earlier
// ones. Follows what Triton 3.6's tritongpu-pipeline produces (two stages:
// the copies and their address computation, then everything else); TMA
// loads first read together (a GEMM's A and B) share one mbarrier per slot,
// expecting all their bytes, waited on with the parity of the ring's round.
//
// For a loop  for i in [lb, ub) step s { body(i, args) }  with S stages:
//   prologue: copies of iterations 0 .. S-2 into slots 0 .. S-2
//   iteration i: wait for its copies (each where first read; TMA: on the
//                slot's mbarrier, parity (i / S) mod 2), read slot
//                i mod S, run the body,
//                then copy iteration i+S-1 into slot (i+S-1) mod S
//   epilogue: wait for every copy (the last S-1 are predicated off), free.
//
// In a cluster, a slot every CTA of a group holds the same tile of (B when
// the product is split along M) is filled by a multicast copy the group
// shares, so a CTA writes into its peers' slots: each CTA then frees a slot
// by arriving on the `empty` mbarrier of every CTA of its groups (one group
// per multicast operand), and waits
// on its own before filling it again (parity of the round before; the
// first round passes on the fresh barrier). Such rings have S + 1 slots:
// iteration i frees the slot it read last (i - 1) and fills the one freed
// in iteration i - 1, so that waiting for the peers' frees, which cross
// the cluster, rarely stalls. The barriers' inits are made visible to the
// cluster before any copy.
//
//===----------------------------------------------------------------------===//
#include "PipelinePlan.h"
#include "TensorMapRings.h"

#include "kiln/Analysis/Allocation.h"
#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Backend/NVIDIA/TargetInfo.h"
#include "kiln/Backend/NVIDIA/Transforms/Passes.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

namespace kiln::nvidia {
#define GEN_PASS_DEF_PIPELINE
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"
} // namespace kiln::nvidia

using namespace mlir;
using namespace kiln;
using namespace kiln::ttg;
using kiln::nvidia::LoopPlan;
using kiln::nvidia::isBufferView;
using kiln::nvidia::StreamedLoad;
using kiln::nvidia::viewedDef;

namespace {

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
  /// group of copies into slot `slot`, enabled where `pred` holds. Returns
  /// each cp.async load's group token (none for a TMA load).
  SmallVector<Value> issueCopies(IRMapping &map, Value slot, Value pred);
  /// Clones the body of the loop into `newLoop`'s, the streamed loads
  /// replaced by reads of slot `slot` (TMA slots once their mbarrier has
  /// completed the phase of parity `phase`; cp.async slots once the group
  /// of `tokens`, per load, has completed).
  void cloneBody(scf::ForOp newLoop, IRMapping &map, Value slot, Value phase,
                 ArrayRef<Value> tokens);
  /// Slot `slot` of a ring of mbarriers.
  Value barrierSlot(Value ring, Value slot);
  Value barrierSlot(StreamedLoad &streamed, Value slot) {
    return barrierSlot(groupBarriers[streamed.barrierGroup], slot);
  }
  /// Multicast copies: the ring of empty mbarriers and the cluster sync
  /// after the inits (see the file comment); the ranks of the CTAs a slot
  /// is shared with. `replicated` holds each multicast load's replicated
  /// CTA bits.
  void initEmptyBarriers(ArrayRef<int64_t> replicated);
  /// Frees `slot` in every CTA of the group where `pred` holds.
  void releaseSlot(Value slot, Value pred);
  /// The op of the new body after which the copies ahead may go, or null
  /// for the end of the body.
  Operation *refillPoint(Block *newBody);

  LoopPlan &plan;
  scf::ForOp loop;
  Location loc;
  OpBuilder builder, constants;
  DenseMap<std::pair<Type, int64_t>, Value> constantCache;
  /// The TMA groups' rings of mbarriers (LoopPlan::barrierBytes).
  SmallVector<Value> groupBarriers;
  Value emptyBarriers;
  SmallVector<Value> peers;
  int32_t warpsPerArrival = 1;
};

Value LoopPipeliner::barrierSlot(Value ring, Value slot) {
  auto type = cast<MemDescType>(ring.getType());
  auto one = MemDescType::get(type.getShape().drop_front(), type.getElementType(),
                              type.getEncoding(), type.getMemorySpace(), true);
  return MemDescIndexOp::create(builder, loc, one, ring, slot);
}

void LoopPipeliner::initEmptyBarriers(ArrayRef<int64_t> replicated) {
  // Slots only wgmmas read are freed per warp group (each waited for its
  // own), others per warp.
  bool wgmmaOnly = llvm::all_of(plan.loads, [](const StreamedLoad &s) {
    return !s.multicast ||
           llvm::all_of(s.users, [](Operation *user) { return isa<LocalAllocOp>(user); });
  });
  unsigned numWarps = lookupNumWarps(loop).value_or(4);
  warpsPerArrival = wgmmaOnly && numWarps % 4 == 0 ? 4 : 1;
  // A CTA's copies write into the CTAs of each multicast load's group (its
  // rank with some of that load's replicated bits flipped), and only those
  // write into its slots: the peers are the union of the groups, not every
  // combination of their bits (4 + 4 - 1 CTAs, not 16, for a 4x4 product).
  llvm::SmallSetVector<int64_t, 16> flips;
  for (int64_t bits : replicated)
    for (int64_t sub = bits;; sub = (sub - 1) & bits) {
      flips.insert(sub);
      if (!sub)
        break;
    }
  MLIRContext *ctx = loop.getContext();
  auto type = MemDescType::get({int64_t(plan.slots), 1}, builder.getI64Type(),
                               ttng::barrierEncoding(loop), SharedMemorySpaceAttr::get(ctx), true);
  emptyBarriers = LocalAllocOp::create(builder, loc, type, Value(), IntegerAttr());
  for (unsigned s = 0; s < plan.slots; ++s)
    ttng::InitBarrierOp::create(builder, loc, barrierSlot(emptyBarriers, slotConstant(s)),
                                flips.size() * (numWarps / warpsPerArrival));
  Value rank = ttng::ClusterCTARankOp::create(builder, loc, builder.getI32Type());
  for (int64_t flip : flips)
    peers.push_back(flip ? Value(arith::XOrIOp::create(builder, loc, rank, slotConstant(flip)))
                         : rank);
}

void LoopPipeliner::releaseSlot(Value slot, Value pred) {
  Value empty = barrierSlot(emptyBarriers, slot);
  auto local = cast<MemDescType>(empty.getType());
  auto remote = MemDescType::get(loop.getContext(), local.getShape(), local.getElementType(),
                                 local.getEncoding(),
                                 ttng::SharedClusterMemorySpaceAttr::get(loop.getContext()),
                                 true, local.getAllocShape());
  for (Value peer : peers) {
    Value view = ttng::MapToRemoteBufferOp::create(builder, loc, remote, empty, peer);
    auto arrive = ttng::ArriveBarrierOp::create(builder, loc, view, 1, pred);
    arrive->setAttr(ttng::kWarpsPerArrivalAttr, builder.getI32IntegerAttr(warpsPerArrival));
  }
}

Value LoopPipeliner::nextSlot(Value slot) {
  Value next = arith::AddIOp::create(builder, loc, slot, slotConstant(1));
  Value wraps = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge, next,
                                      slotConstant(plan.slots));
  return arith::SelectOp::create(builder, loc, wraps, slotConstant(0), next);
}

Operation *LoopPipeliner::refillPoint(Block *newBody) {
  // The copies ahead refill the slot the previous iteration read. With one
  // wgmma in the body, left in flight at most one deep, that slot is free
  // after the body's last use of the rings (the wait after the dot, which
  // retires the previous iteration's): the copies go there, before the
  // rest of the body (a persistent loop's epilogue), as in Triton's
  // schedule, so that the ring refills while the epilogue runs. Deferred or
  // nested dots are retired elsewhere, and mma.sync loops are left as they
  // were: their copies stay at the end.
  unsigned dots = 0;
  bool nested = false;
  loop.getBody()->walk([&](ttng::WarpGroupDotOp dot) {
    ++dots;
    nested |= dot->getBlock() != loop.getBody();
  });
  if (dots != 1 || nested || !plan.deferred.empty())
    return nullptr;
  llvm::SmallPtrSet<Value, 8> rings(groupBarriers.begin(), groupBarriers.end());
  for (StreamedLoad &streamed : plan.loads)
    rings.insert(streamed.ring);
  auto isRingView = [&](Value value) {
    for (Operation *def = value.getDefiningOp(); def && isBufferView(def);
         def = value.getDefiningOp())
      value = def->getOperand(0);
    return rings.contains(value);
  };
  Operation *last = nullptr;
  for (Operation &op : newBody->getOperations()) {
    WalkResult usesRing = op.walk([&](Operation *inner) {
      return llvm::any_of(inner->getOperands(), isRingView) ? WalkResult::interrupt()
                                                            : WalkResult::advance();
    });
    if (usesRing.wasInterrupted())
      last = &op;
  }
  return last;
}

SmallVector<Value> LoopPipeliner::issueCopies(IRMapping &map, Value slot, Value pred) {
  for (Operation *op : plan.addressOps)
    builder.clone(*op, map);
  SmallVector<Value> tokens;
  SmallVector<Value> groupBarrier(plan.barrierBytes.size());
  for (StreamedLoad &streamed : plan.loads) {
    if (auto descLoad = dyn_cast<tt::DescriptorLoadOp>(streamed.load)) {
      Value buffer = MemDescIndexOp::create(builder, loc, streamed.slotType, streamed.ring, slot);
      // The group's bytes are expected before its first copy. Past the
      // trip count the predicate is off: no bytes are expected and nothing
      // is copied.
      Value &barrier = groupBarrier[streamed.barrierGroup];
      if (!barrier) {
        barrier = barrierSlot(streamed, slot);
        ttng::BarrierExpectOp::create(builder, loc, barrier,
                                      int32_t(plan.barrierBytes[streamed.barrierGroup]), pred);
      }
      SmallVector<Value> indices;
      for (Value index : descLoad.getIndices())
        indices.push_back(map.lookupOrDefault(index));
      ttng::AsyncTMACopyGlobalToLocalOp::create(
          builder, loc, map.lookupOrDefault(descLoad.getDesc()), indices, barrier, buffer, pred,
          /*ctaMask=*/Value(), streamed.multicast, descLoad.getCache(), descLoad.getEvict(), /*isVolatile=*/false);
      tokens.push_back(Value());
      continue;
    }
    auto load = cast<tt::LoadOp>(streamed.load);
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
    auto group = AsyncCommitGroupOp::create(builder, loc, ValueRange{copy.getToken()});
    tokens.push_back(group->getResult(0));
  }
  return tokens;
}

/// Where a region of the body reads a wgmma result left in flight, it
/// waits for that wgmma first (once per block directly in the region).
void retireInRegions(Block *body, Value inFlight) {
  DenseMap<Block *, Value> retired;
  for (OpOperand &use : llvm::make_early_inc_range(inFlight.getUses())) {
    Block *block = use.getOwner()->getBlock();
    if (block == body)
      continue;
    while (block->getParentOp()->getBlock() != body)
      block = block->getParentOp()->getBlock();
    Value &value = retired[block];
    if (!value) {
      OpBuilder b = OpBuilder::atBlockBegin(block);
      value = ttng::WarpGroupDotWaitOp::create(b, inFlight.getLoc(), ValueRange{inFlight}, 0)
                  .getResult(0);
    }
    use.set(value);
  }
}

void LoopPipeliner::cloneBody(scf::ForOp newLoop, IRMapping &map, Value slot, Value phase,
                              ArrayRef<Value> tokens) {
  unsigned numStages = plan.numStages;
  SmallVector<Value> inFlight;
  unsigned numLoads = plan.loads.size();
  DenseMap<Operation *, Value> views;
  DenseMap<Operation *, unsigned> loadOf;
  llvm::SmallPtrSet<Operation *, 8> skipped;
  for (auto [j, streamed] : llvm::enumerate(plan.loads)) {
    Value view = MemDescIndexOp::create(builder, loc, streamed.slotType, streamed.ring, slot);
    // A load read into registers is replaced where it stood.
    if (streamed.toRegisters) {
      views[streamed.load] = view;
      loadOf[streamed.load] = unsigned(j);
      continue;
    }
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
  llvm::SmallDenseSet<unsigned> waitedGroups;
  auto waitFor = [&](unsigned j) -> Value {
    if (Value token = waitOf.lookup(j))
      return token;
    unsigned pending = (numLoads - 1 - j) + numLoads * (numStages - 2);
    // Reads right after one another share one wait, for the later load.
    Block *block = builder.getInsertionBlock();
    auto last = block->empty() ? AsyncWaitOp() : dyn_cast<AsyncWaitOp>(block->back());
    if (last && llvm::is_contained(llvm::make_second_range(waitOf), last.getRetToken())) {
      last.setNum(std::min<int32_t>(last.getNum(), pending));
      last.getAsyncTokenMutable().append(tokens[j]);
      waitOf[j] = last.getRetToken();
      return last.getRetToken();
    }
    // The wait names the group it waits for, as Triton's does.
    Value token = AsyncWaitOp::create(builder, loc, tokens[j], pending).getRetToken();
    waitOf[j] = token;
    return token;
  };
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (skipped.contains(&op))
      continue;
    if (auto it = views.find(&op); it != views.end()) {
      Value read = it->second;
      unsigned j = loadOf.lookup(&op);
      if (plan.loads[j].isTMA()) {
        // The group's mbarrier completes a phase per round of the ring.
        if (waitedGroups.insert(plan.loads[j].barrierGroup).second)
          ttng::WaitBarrierOp::create(builder, loc, barrierSlot(plan.loads[j], slot), phase,
                                      Value(), ValueRange());
        if (plan.loads[j].toRegisters)
          read = LocalLoadOp::create(builder, loc, op.getResult(0).getType(), read, Value());
        map.map(op.getResult(0), read);
        continue;
      }
      Value token = waitFor(j);
      if (auto cvt = dyn_cast<ConvertLayoutOp>(op))
        read = LocalLoadOp::create(builder, loc, cvt.getType(), read, token);
      else if (plan.loads[j].toRegisters)
        read = LocalLoadOp::create(builder, loc, op.getResult(0).getType(), read, token);
      map.map(op.getResult(0), read);
      continue;
    }
    auto dot = dyn_cast<ttng::WarpGroupDotOp>(op);
    auto readsCpAsyncRing = [&](Value operand) {
      auto it = loadOf.find(viewedDef(operand));
      return it != loadOf.end() && !plan.loads[it->second].isTMA();
    };
    bool readsRing = dot && (readsCpAsyncRing(dot.getA()) || readsCpAsyncRing(dot.getB()));
    // cp.async writes through the generic proxy, wgmma reads through the
    // async one (as TMA writes: its slots need no fence).
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
    if (pendings)
      inFlight.push_back(dotWait.getResult(0));
    for (auto [i, index] : llvm::enumerate(later))
      map.map(loop.getRegionIterArgs()[index], dotWait.getResult(waited.size() - later.size() + i));
  }
  for (Value value : inFlight)
    retireInRegions(newLoop.getBody(), value);
}

void LoopPipeliner::run() {
  unsigned numStages = plan.numStages, slots = plan.slots;
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
  // A TMA group's mbarriers, one arrival (the expect) per phase.
  MLIRContext *ctx = loop.getContext();
  auto barrierType = MemDescType::get({int64_t(slots), 1}, builder.getI64Type(),
                                      ttng::barrierEncoding(loop), SharedMemorySpaceAttr::get(ctx),
                                      true);
  for (unsigned g = 0; g < plan.barrierBytes.size(); ++g) {
    groupBarriers.push_back(LocalAllocOp::create(builder, loc, barrierType, Value(), IntegerAttr()));
    for (unsigned s = 0; s < slots; ++s)
      ttng::InitBarrierOp::create(builder, loc, barrierSlot(groupBarriers[g], slotConstant(s)), 1);
  }
  // The CTAs the shared slots are shared with.
  SmallVector<int64_t> replicated;
  for (StreamedLoad &streamed : plan.loads)
    if (streamed.multicast)
      if (int64_t bits = ttng::replicatedCTABits(
              cast<LayoutEncodingInterface>(streamed.slotType.getEncoding())))
        replicated.push_back(bits);
  if (!replicated.empty()) {
    initEmptyBarriers(replicated);
    ttng::FenceMBarrierInitReleaseClusterOp::create(builder, loc);
    ttng::ClusterArriveOp::create(builder, loc, /*relaxed=*/false);
    ttng::ClusterWaitOp::create(builder, loc);
  }

  // Prologue: iterations 0 .. S-2. Iteration j exists iff lb < ub and
  // ub - lb > j * step, the difference taken unsigned (exact once lb < ub,
  // for signed and unsigned loops alike, so nothing overflows).
  Value anyIteration = arith::CmpIOp::create(
      builder, loc, isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt, lb, ub);
  Value span = arith::SubIOp::create(builder, loc, ub, lb);
  SmallVector<Value> carriedValues;
  for (unsigned k : plan.carried)
    carriedValues.push_back(loop.getInitArgs()[k]);
  // The group tokens of the copies in flight, iteration by iteration.
  SmallVector<SmallVector<Value>> inFlightTokens;
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
    inFlightTokens.push_back(issueCopies(map, slotConstant(j), pred));
    for (auto [k, value] : llvm::zip(plan.carried, carriedValues))
      value = map.lookupOrDefault(yield.getOperand(k));
  }
  // The distance to the iteration whose copies an iteration issues (and,
  // for shared slots, the next iteration's).
  Value distance = scaled(step, numStages - 1);
  Value nextDistance = emptyBarriers ? scaled(step, numStages) : Value();

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
  // The parity of the TMA slots' phase the reads wait for.
  if (plan.hasTMA())
    inits.push_back(slotConstant(0));
  // The parity of the empty barriers' phase a fill waits for (the first
  // round's passes on the fresh barrier).
  if (emptyBarriers)
    inits.push_back(slotConstant(1));
  // The cp.async groups' tokens, for the waits (they carry no data).
  unsigned tokenPos = inits.size();
  for (ArrayRef<Value> tokens : inFlightTokens)
    for (Value token : tokens)
      if (token)
        inits.push_back(token);
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
  Value phase = plan.hasTMA() ? newArgs[fillPos + 2] : Value();
  Value fillParity = emptyBarriers ? newArgs[fillPos + 3] : Value();

  IRMapping current;
  current.map(loop.getInductionVar(), newLoop.getInductionVar());
  for (unsigned i = 0; i < numArgs; ++i)
    current.map(loop.getRegionIterArgs()[i], newArgs[i]);
  // The tokens of this iteration's groups, by load.
  SmallVector<Value> readTokens;
  unsigned nextToken = tokenPos;
  for (Value token : inFlightTokens.front())
    readTokens.push_back(token ? Value(newArgs[nextToken++]) : Value());
  cloneBody(newLoop, current, readSlot, phase, readTokens);
  if (Operation *after = refillPoint(newBody))
    builder.setInsertionPointAfter(after);

  // Iteration i issues iteration i + S - 1's copies: it exists iff
  // ub - iv > (S - 1) * step, unsigned (iv < ub here).
  IRMapping ahead;
  Value iv = newLoop.getInductionVar();
  ahead.map(loop.getInductionVar(), arith::AddIOp::create(builder, loc, iv, distance));
  for (unsigned k : plan.carried)
    ahead.map(loop.getRegionIterArgs()[k], newArgs[advancedPos[k]]);
  Value left = arith::SubIOp::create(builder, loc, ub, iv);
  Value pred = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ugt, left, distance);
  Value nextFill;
  if (emptyBarriers) {
    nextFill = nextSlot(fillSlot);
    // The slot read last iteration is the one the next iteration fills
    // (S + 1 slots); it is freed where that fill happens: ub - iv > S *
    // step. The first iteration read none.
    Value nextFills =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ugt, left, nextDistance);
    Value notFirst = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, iv, lb);
    releaseSlot(nextFill, arith::AndIOp::create(builder, loc, nextFills, notFirst));
    ttng::WaitBarrierOp::create(builder, loc, barrierSlot(emptyBarriers, fillSlot), fillParity,
                                pred, ValueRange());
  }
  SmallVector<Value> aheadTokens = issueCopies(ahead, fillSlot, pred);
  builder.setInsertionPointToEnd(newBody);

  SmallVector<Value> yields;
  for (unsigned i = 0; i < numArgs; ++i)
    yields.push_back(plan.advancedOnly.contains(i) ? ahead.lookupOrDefault(yield.getOperand(i))
                                                   : current.lookupOrDefault(yield.getOperand(i)));
  for (unsigned k : plan.carried)
    if (!plan.advancedOnly.contains(k))
      yields.push_back(ahead.lookupOrDefault(yield.getOperand(k)));
  if (!nextFill)
    nextFill = nextSlot(fillSlot);
  yields.push_back(nextFill);
  Value nextRead = nextSlot(readSlot);
  yields.push_back(nextRead);
  // A new round of the ring starts when a slot counter wraps to 0.
  auto flipOnWrap = [&](Value parity, Value next) -> Value {
    Value wraps = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, next,
                                        slotConstant(0));
    Value flipped = arith::XOrIOp::create(builder, loc, parity, slotConstant(1));
    return arith::SelectOp::create(builder, loc, wraps, flipped, parity);
  };
  if (phase)
    yields.push_back(flipOnWrap(phase, nextRead));
  if (fillParity)
    yields.push_back(flipOnWrap(fillParity, nextFill));
  // The window of tokens moves on by one iteration.
  for (unsigned pos = nextToken; pos < newArgs.size(); ++pos)
    yields.push_back(newArgs[pos]);
  for (Value token : aheadTokens)
    if (token)
      yields.push_back(token);
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
  if (plan.hasCpAsync())
    AsyncWaitOp::create(builder, loc, ValueRange(), 0);
  // Every TMA copy issued was waited for: those past the trip count were
  // predicated off.
  for (Value barriers : groupBarriers) {
    for (unsigned s = 0; s < slots; ++s)
      ttng::InvalBarrierOp::create(builder, loc, barrierSlot(barriers, slotConstant(s)));
    LocalDeallocOp::create(builder, loc, barriers);
  }
  for (StreamedLoad &streamed : plan.loads)
    LocalDeallocOp::create(builder, loc, streamed.ring);
  // Every arrival on these came before a wait this CTA passed.
  if (emptyBarriers) {
    for (unsigned s = 0; s < slots; ++s)
      ttng::InvalBarrierOp::create(builder, loc, barrierSlot(emptyBarriers, slotConstant(s)));
    LocalDeallocOp::create(builder, loc, emptyBarriers);
  }
  loop.erase();

  eraseDeadOps(newBody->begin(), std::prev(newBody->end()));
  eraseDeadOps(firstNew->getIterator(), newLoop->getIterator());
}

/// Whether `a` and `b` lie in different regions of one scf.if, so that
/// at most one of them runs (and the allocator may overlap their buffers,
/// which it does not inside a ttg.warp_specialize).
bool onOtherBranches(Operation *a, Operation *b) {
  for (Operation *ifOp = a->getParentOp(); ifOp; ifOp = ifOp->getParentOp()) {
    if (!isa<scf::IfOp>(ifOp) || !ifOp->isProperAncestor(b))
      continue;
    if (ifOp->getParentOfType<WarpSpecializeOp>())
      return false;
    Region *regionA = ifOp->getRegion(0).findAncestorOpInRegion(*a) ? &ifOp->getRegion(0)
                                                                    : &ifOp->getRegion(1);
    return !regionA->findAncestorOpInRegion(*b);
  }
  return false;
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
    // Every plan is made from the unchanged module's axis info. A loop's
    // rings must fit beside every other buffer of its kernel (counted as
    // if all were live at once): what does not fit stays synchronous or
    // gets fewer stages, so that a kernel Triton fits, kiln fits.
    AxisInfoAnalysis axes(module);
    int64_t limit = *target ? nvidia::createTargetInfo((*target)->capability())->sharedMemoryLimit()
                            : std::numeric_limits<int64_t>::max();
    std::vector<LoopPlan> plans;
    ScratchContext scratch{lookupThreadsPerWarp(module),
                           lookupNumWarps(module.getOperation()).value_or(4)};
    for (auto [loop, stages] : loops) {
      int64_t others = nvidia::sharedBesideRings(loop, scratch);
      // A buffer on the other side of an scf.if from the loop (the
      // unflattened version of a tl.range(flatten=True) loop nest) is never
      // live beside it.
      loop->getParentOfType<tt::FuncOp>().walk([&](LocalAllocOp alloc) {
        if (!onOtherBranches(alloc, loop))
          others += localAllocBytes(alloc);
      });
      if (std::optional<LoopPlan> plan =
              nvidia::planLoopWithin(loop, stages, axes, limit - others))
        plans.push_back(std::move(*plan));
    }
    // The clones of a tensor map made in a pipelined loop share a ring
    // (TensorMapRings.h): each make is marked before it is cloned.
    int64_t nextRing = 0;
    for (LoopPlan &plan : plans)
      plan.loop.walk([&](tt::MakeTensorDescOp make) {
        make->setAttr(nvidia::kTensorMapRingAttr,
                      IntegerAttr::get(IntegerType::get(module.getContext(), 32), nextRing++));
      });
    for (LoopPlan &plan : plans)
      LoopPipeliner(plan).run();
  }
};

} // namespace

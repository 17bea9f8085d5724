//===- PipelinePlan.cpp - which loads of a dot loop stream, and how -------===//
#include "PipelinePlan.h"

#include "kiln/Analysis/AccessWidth.h"
#include "kiln/Analysis/Allocation.h"
#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"
#include "kiln/Layout/Queries.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ttgir-pipeline"

using namespace mlir;
using namespace kiln;
using namespace kiln::ttg;

namespace kiln::nvidia {

bool StreamedLoad::isTMA() const { return isa<tt::DescriptorLoadOp>(load); }

bool LoopPlan::hasTMA() const {
  return llvm::any_of(loads, [](const StreamedLoad &s) { return s.isTMA(); });
}

bool LoopPlan::hasMulticast() const {
  return llvm::any_of(loads, [](const StreamedLoad &s) { return s.multicast; });
}

bool LoopPlan::hasCpAsync() const {
  return llvm::any_of(loads, [](const StreamedLoad &s) { return !s.isTMA(); });
}

bool isBufferView(Operation *op) {
  return isa<MemDescIndexOp, MemDescTransOp, MemDescSubsliceOp, MemDescReinterpretOp>(op);
}

Operation *viewedDef(Value operand) {
  if (auto trans = operand.getDefiningOp<MemDescTransOp>())
    operand = trans.getSrc();
  return operand.getDefiningOp();
}

namespace {

bool isPureLeaf(Operation *op) { return op->getNumRegions() == 0 && isMemoryEffectFree(op); }

/// Whether `other` is known to be +0 everywhere (what cp.async writes for
/// masked elements).
bool isZero(Value other) {
  return matchPattern(other, m_Zero()) || matchPattern(other, m_PosZeroFloat());
}

/// The CGA layout (flattened) of operand `dotEnc`: its product's result's
/// split, along M for A and along N for B, never along K
/// (layout::operandCGA).
SmallVector<int32_t> dotOperandCGA(DotOperandEncodingAttr dotEnc, unsigned rank) {
  SmallVector<int32_t> flat;
  for (SmallVector<int32_t> basis : dotEnc.getCGABases()) {
    basis[dotEnc.getOpIdx() == 0 ? rank - 1 : rank - 2] = 0;
    llvm::append_range(flat, basis);
  }
  return flat;
}

/// The `#ttg.swizzled_shared` layout Triton gives an mma operand in shared
/// memory that is read into `dotEnc`: rows of `vec` elements, the swizzle
/// phase advancing every 128 bytes, over as many phases as one ldmatrix
/// tile has rows, so that the 8 rows an ldmatrix reads hit distinct banks.
/// In a program of several CTAs it is split over them as the operand is,
/// and each CTA's tile is swizzled alone (the rows are the tile's).
SwizzledSharedEncodingAttr sharedForDotOperand(DotOperandEncodingAttr dotEnc,
                                               ArrayRef<int64_t> shape,
                                               ArrayRef<unsigned> order, unsigned bits) {
  unsigned rank = shape.size(), kWidth = dotEnc.getKWidth();
  SmallVector<int32_t> cga = dotOperandCGA(dotEnc, rank);
  SmallVector<int64_t> tile = ctaShape(shape, cga);
  int64_t rowBytesish = std::max<int64_t>(1, tile[order[0]] * 4 / kWidth);
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
  return SwizzledSharedEncodingAttr::get(dotEnc.getContext(), vec, perPhase, maxPhase, order,
                                         cga);
}

/// Adds to `plan` the ops of the loop body that `roots` are computed by,
/// and, for every iteration argument reached, the computation of its next
/// value. False if any of them has memory effects.
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
    // Ops with regions are cloned whole (a fused loop's scf.if that starts
    // the next tile): they count with what their regions read.
    if (!isMemoryEffectFree(def))
      return false;
    ops.insert(def);
    llvm::append_range(work, def->getOperands());
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(def->getRegions(), above);
    llvm::append_range(work, above);
  }
  return true;
}

/// Finds the streamed load behind a dot operand, if any: a tt.load or a
/// tt.descriptor_load of the loop body.
Operation *loadBehind(Value operand, Block *body) {
  Operation *def = viewedDef(operand);
  if (!def || def->getBlock() != body)
    return {};
  Value src;
  if (auto alloc = dyn_cast<LocalAllocOp>(def))
    src = alloc.getSrc();
  else if (auto cvt = dyn_cast<ConvertLayoutOp>(def))
    if (isa_and_nonnull<DotOperandEncodingAttr>(cvt.getType().getEncoding()))
      src = cvt.getSrc();
  Operation *load = src ? src.getDefiningOp() : nullptr;
  if (!isa_and_nonnull<tt::LoadOp, tt::DescriptorLoadOp>(load) || load->getBlock() != body)
    return {};
  return load;
}

/// The tt.loads of the loop body whose values a dot operand is computed
/// from by pure ops of the body (an upcast and a scale multiply, say), the
/// operand's conversion or buffer included; loads whose addresses depend
/// on loaded data are found too and left to the address check.
SmallVector<Operation *> loadsComputedInto(Value operand, Block *body) {
  SmallVector<Operation *> loads;
  llvm::SmallPtrSet<Operation *, 16> seen;
  SmallVector<Value> work{operand};
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || !seen.insert(def).second)
      continue;
    if (isa<tt::LoadOp>(def)) {
      loads.push_back(def);
      continue;
    }
    // A buffer written from registers (a wgmma's B) has effects; follow its
    // source all the same.
    if (!isPureLeaf(def) && !(isa<LocalAllocOp>(def) && def->getNumOperands() == 1))
      continue;
    llvm::append_range(work, def->getOperands());
  }
  return loads;
}

/// A slot of `tensor`'s shape and elements in `encoding` (its ring is
/// made once the plan knows how many slots it has).
void setSlot(StreamedLoad &streamed, RankedTensorType tensor, Attribute encoding) {
  Attribute smem = SharedMemorySpaceAttr::get(tensor.getContext());
  streamed.slotType =
      MemDescType::get(tensor.getShape(), tensor.getElementType(), encoding, smem, true);
}

/// Checks that `load` can be streamed and works out its slot.
std::optional<StreamedLoad> planLoad(tt::LoadOp load, const AxisInfoAnalysis &axes) {
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

  // A load that reaches a dot only through computation on its value (an
  // upcast, a scale) streams too, and is read back from its slot into its
  // own layout: rows of the thread's contiguous elements, unswizzled (the
  // copies and the reads both move `vec` elements a thread).
  bool direct = llvm::all_of(load->getUsers(), [](Operation *user) {
    auto cvt = dyn_cast<ConvertLayoutOp>(user);
    return isa<LocalAllocOp>(user) ||
           (cvt && isa<DotOperandEncodingAttr>(cvt.getType().getEncoding()));
  });
  if (!direct) {
    auto blocked = dyn_cast<BlockedEncodingAttr>(resultType.getEncoding());
    if (!blocked)
      return reject("read back into registers from a layout other than a blocked one");
    if (llvm::any_of(load->getUsers(),
                     [&](Operation *user) { return user->getBlock() != load->getBlock(); }))
      return reject("used in another block");
    streamed.toRegisters = true;
    setSlot(streamed, resultType,
            SwizzledSharedEncodingAttr::get(load.getContext(), streamed.vec, 1, 1,
                                            blocked.getOrder(), blocked.getCgaLayout()));
    return streamed;
  }

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
  setSlot(streamed, resultType, encoding);
  // The slot's layout may run the other way from the pointers (fp8 dot
  // operands are K-major in shared memory, whatever the global order): a
  // cp.async needs 4 consecutive bytes in both, else the load is left
  // synchronous, as Triton leaves it.
  llvm::Expected<layout::LinearLayout> whole = toLinearLayout(resultType);
  llvm::Expected<layout::LinearLayout> shared =
      cast<LayoutEncodingInterface>(encoding).toLinearLayout(resultType.getShape());
  if (!whole || !shared) {
    llvm::consumeError(whole.takeError());
    llvm::consumeError(shared.takeError());
    return reject("no linear layout for the load or its slot");
  }
  // In a program of several CTAs each copies its own tile into its own
  // slot: the load and the slot must be split over the CTAs alike.
  auto blockBases = [](const layout::LinearLayout &ll) {
    return ll.hasInDim(layout::kBlock) ? ll.getInDims()[ll.getInDimIndex(layout::kBlock)].bases
                                       : std::vector<layout::LinearLayout::Basis>{};
  };
  if (blockBases(*whole) != blockBases(*shared))
    return reject("split over the CTAs otherwise than its slot");
  llvm::Expected<layout::LinearLayout> regs = layout::ctaTile(*whole);
  shared = layout::ctaTile(*shared);
  if (!regs || !shared) {
    llvm::consumeError(regs.takeError());
    llvm::consumeError(shared.takeError());
    return reject("no linear layout for the load's or its slot's tile");
  }
  if (std::min(streamed.vec, layout::sharedVectorWidth(*regs, *shared, bits)) *
          bits < 32)
    return reject("fewer than 4 bytes per thread consecutive in the slot's layout");
  return streamed;
}

/// Checks that a descriptor load can stream into a ring of TMA copies: its
/// users are all local_allocs of the block in the descriptor's own
/// nvmma_shared layout (the dot reads the slot in place), or it is read
/// into registers from the slot (`toRegisters`). A rank-reducing load's
/// slots drop the block's leading unit dimensions.
std::optional<StreamedLoad> planDescriptorLoad(tt::DescriptorLoadOp load) {
  auto reject = [&](const char *why) -> std::optional<StreamedLoad> {
    LLVM_DEBUG(llvm::dbgs() << "ttgir-pipeline: " << load << " stays synchronous: " << why
                            << "\n");
    return std::nullopt;
  };
  ArrayRef<int64_t> shape = load.getType().getShape();
  MemDescType slot = ttng::tmaBufferType(load.getDesc().getType(), shape, true);
  if (!slot)
    return reject("its result is not its block in an nvmma_shared layout");
  Attribute encoding = slot.getEncoding();
  if (cast<NVMMASharedEncodingAttr>(encoding).getSwizzlingByteWidth() == 0)
    return reject("its block is not swizzled");
  StreamedLoad streamed;
  streamed.load = load;
  bool allocs = !load->use_empty();
  for (Operation *user : load->getUsers()) {
    auto alloc = dyn_cast<LocalAllocOp>(user);
    allocs &= alloc && alloc->getBlock() == load->getBlock() &&
              alloc.getType().getEncoding() == encoding;
  }
  if (load->use_empty())
    return reject("unused");
  if (allocs)
    llvm::append_range(streamed.users, load->getUsers());
  else
    streamed.toRegisters = true;
  streamed.slotType = slot;
  streamed.bytes = ttng::bufferBytes(slot);
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
/// shared memory, with its result feeding the next accumulator and
/// otherwise only ops nested in later ops of the body (a fused loop's
/// epilogue, which waits for it there). Not for f16 accumulators: wgmma
/// writes them two to a register, the loop carries them one by one, and
/// splitting a register the wgmma still owns makes ptxas serialise every
/// wgmma of the loop.
bool mayKeepOneInFlight(LoopPlan &plan, ttng::WarpGroupDotOp dot, unsigned numDots) {
  scf::ForOp loop = plan.loop;
  if (numDots != 1 || !isa<MemDescType>(dot.getA().getType()) ||
      dot.getD().getType().getElementType().isF16())
    return false;
  for (Value operand : {Value(dot.getA()), Value(dot.getB())}) {
    bool fromRing = llvm::any_of(plan.loads, [&](StreamedLoad &s) {
      return llvm::is_contained(s.users, viewedDef(operand));
    });
    if (!fromRing && !loop.isDefinedOutsideOfLoop(operand))
      return false;
  }
  Block *body = loop.getBody();
  OpOperand *carried = nullptr;
  for (OpOperand &use : dot.getD().getUses()) {
    Operation *user = use.getOwner();
    if (isa<scf::YieldOp>(user) && user->getBlock() == body) {
      if (carried)
        return false;
      carried = &use;
      continue;
    }
    Operation *inBody = body->findAncestorOpInBlock(*user);
    if (inBody == user || !dot->isBeforeInBlock(inBody))
      return false;
  }
  if (!carried)
    return false;
  BlockArgument acc = loop.getRegionIterArgs()[carried->getOperandNumber()];
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

/// Whether waiting before `op` rather than after it costs nothing worth
/// keeping a second mbarrier for: a view of a buffer, or scalar arithmetic.
bool isCheap(Operation &op) {
  if (isBufferView(&op))
    return true;
  return isPure(&op) && op.getNumRegions() == 0 &&
         llvm::all_of(op.getResultTypes(), [](Type t) { return t.isIntOrIndexOrFloat(); });
}

/// Sets the TMA loads' barrier groups (LoopPlan::barrierBytes): walking
/// the body, where each load's slot is first read, a group runs on while
/// only first reads of TMA slots, other reads of slots already waited for,
/// the streamed loads themselves (which the rewrite drops) and cheap ops
/// follow one another.
void groupBarriers(LoopPlan &plan) {
  DenseMap<Operation *, unsigned> readerOf;
  llvm::SmallPtrSet<Operation *, 8> loads;
  for (auto [j, streamed] : llvm::enumerate(plan.loads)) {
    loads.insert(streamed.load);
    if (streamed.toRegisters)
      readerOf[streamed.load] = unsigned(j);
    for (Operation *user : streamed.users)
      readerOf[user] = unsigned(j);
  }
  std::optional<unsigned> open;
  llvm::SmallDenseSet<unsigned> read;
  for (Operation &op : plan.loop.getBody()->without_terminator()) {
    auto it = readerOf.find(&op);
    if (it == readerOf.end()) {
      if (!loads.contains(&op) && !isCheap(op))
        open.reset();
      continue;
    }
    StreamedLoad &streamed = plan.loads[it->second];
    if (!streamed.isTMA()) {
      open.reset();
      continue;
    }
    if (!read.insert(it->second).second)
      continue;
    if (!open) {
      open = unsigned(plan.barrierBytes.size());
      plan.barrierBytes.push_back(0);
    }
    streamed.barrierGroup = *open;
    plan.barrierBytes[*open] += streamed.bytes;
  }
  // A streamed load's readers are ops of the body (planDescriptorLoad).
  assert(size_t(llvm::count_if(plan.loads, [](const StreamedLoad &s) { return s.isTMA(); })) ==
             read.size() &&
         "a TMA load with no reader in the loop body");
}

} // namespace

std::optional<LoopPlan> planLoop(scf::ForOp loop, unsigned numStages,
                                 const AxisInfoAnalysis &axes,
                                 const llvm::SmallPtrSetImpl<Operation *> &excluded,
                                 bool share) {
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
    for (Value operand : operands) {
      if (Operation *load = loadBehind(operand, body))
        candidates.insert(load);
      else
        for (Operation *load : loadsComputedInto(operand, body))
          candidates.insert(load);
    }
  }
  // Descriptor loads stream in any loop, read from their slot into
  // registers when no dot reads them in place.
  for (Operation &op : *body)
    if (isa<tt::DescriptorLoadOp>(op))
      candidates.insert(&op);
  llvm::SetVector<Operation *> ops;
  llvm::SetVector<unsigned> carried;
  for (Operation *op : candidates) {
    if (excluded.contains(op))
      continue;
    std::optional<StreamedLoad> streamed;
    SmallVector<Value> roots;
    if (auto load = dyn_cast<tt::LoadOp>(op)) {
      streamed = planLoad(load, axes);
      roots.push_back(load.getPtr());
      if (load.getMask())
        roots.push_back(load.getMask());
    } else {
      auto descLoad = cast<tt::DescriptorLoadOp>(op);
      streamed = planDescriptorLoad(descLoad);
      roots.push_back(descLoad.getDesc());
      llvm::append_range(roots, descLoad.getIndices());
    }
    if (!streamed)
      continue;
    // Each load's address computation is checked on its own, so that one
    // load computed from loaded data leaves the others pipelined.
    llvm::SetVector<Operation *> loadOps = ops;
    llvm::SetVector<unsigned> loadCarried = carried;
    if (!collectAddressOps(plan, roots, loadOps, loadCarried)) {
      LLVM_DEBUG(llvm::dbgs() << "ttgir-pipeline: " << *op
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
  // In a cluster, a TMA slot whose tile several CTAs hold is filled by one
  // copy they share; its ring gets a slot more (see LoopPlan::slots).
  plan.slots = numStages;
  if (share && lookupNumCTAs(loop) > 1) {
    for (StreamedLoad &streamed : plan.loads)
      streamed.multicast =
          streamed.isTMA() && !streamed.toRegisters &&
          ttng::replicatedCTABits(
              cast<LayoutEncodingInterface>(streamed.slotType.getEncoding())) != 0;
    if (plan.hasMulticast())
      plan.slots = numStages + 1;
  }
  for (StreamedLoad &streamed : plan.loads) {
    MemDescType slot = streamed.slotType;
    SmallVector<int64_t> shape{int64_t(plan.slots)};
    llvm::append_range(shape, slot.getShape());
    streamed.ringType = MemDescType::get(shape, slot.getElementType(), slot.getEncoding(),
                                         slot.getMemorySpace(), true);
  }
  findAdvancedOnly(plan);
  groupBarriers(plan);
  for (Operation &op : *body)
    if (auto dot = dyn_cast<ttng::WarpGroupDotOp>(op))
      if (mayKeepOneInFlight(plan, dot, numWgmma))
        plan.keepOneInFlight.insert(dot);
  findDeferredWaits(plan);
  return plan;
}


std::optional<LoopPlan> planLoopWithin(scf::ForOp loop, unsigned numStages,
                                       const AxisInfoAnalysis &axes, int64_t budget) {
  llvm::SmallPtrSet<Operation *, 4> excluded;
  for (;;) {
    const StreamedLoad *largest = nullptr;
    std::optional<LoopPlan> plan;
    // Shared copies first; where their extra slot does not fit, each CTA
    // copies its own tiles with the stages asked for.
    for (unsigned stages = numStages; stages >= 2; --stages) {
      for (bool share : {true, false}) {
        plan = planLoop(loop, stages, axes, excluded, share);
        if (!plan)
          return std::nullopt;
        largest = nullptr;
        // A ring replaces the local_allocs its slots stand for (counted in
        // the budget's other buffers), not a load read into registers or
        // converted, which had no buffer; mbarriers are 8 bytes a slot, a
        // ring for each TMA group and one more for shared copies' frees.
        int64_t bytes = 8 * plan->slots * int64_t(plan->barrierBytes.size());
        for (const StreamedLoad &s : plan->loads) {
          bytes += ttng::bufferBytes(s.ringType);
          for (Operation *user : s.users)
            if (isa<LocalAllocOp>(user))
              bytes -= localAllocBytes(user);
          if (!largest || ttng::bufferBytes(s.slotType) > ttng::bufferBytes(largest->slotType))
            largest = &s;
        }
        if (plan->hasMulticast())
          bytes += 8 * plan->slots;
        if (bytes <= budget)
          return plan;
        LLVM_DEBUG(llvm::dbgs() << "ttgir-pipeline: " << plan->slots << " slots need " << bytes
                                << " more bytes of shared memory, " << budget
                                << " are left\n");
        // Without a shared copy the plan with `share` off is the same.
        if (!plan->hasMulticast())
          break;
      }
    }
    // The largest load stays synchronous; the others may then have all
    // the stages asked for again.
    excluded.insert(largest->load);
  }
}

/// Whether the registers of `type`'s layout alone select which `pieces`
/// parts of its innermost dimension an element is in: each bit above the
/// part's width comes from one register basis that sets nothing else.
static bool registersSelectInnerParts(RankedTensorType type, unsigned pieces) {
  llvm::Expected<layout::LinearLayout> ll = ttg::toLinearLayout(type);
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return false;
  }
  unsigned inner = type.getRank() - 1;
  int64_t width = type.getShape()[inner] / pieces;
  for (const layout::LinearLayout::InDim &in : ll->getInDims())
    for (const layout::LinearLayout::Basis &b : in.bases) {
      if (b[inner] < width)
        continue;
      bool alone = llvm::all_of(llvm::enumerate(b), [&](auto e) {
        return e.index() == inner || e.value() == 0;
      });
      if (in.name != layout::kRegister || !alone || !llvm::isPowerOf2_32(b[inner]))
        return false;
    }
  return true;
}

TMAStoreStaging tmaStoreStaging(tt::DescriptorStoreOp store) {
  auto type = cast<RankedTensorType>(store.getSrc().getType());
  TMAStoreStaging staging{ttng::tmaBufferType(store.getDesc().getType(), type.getShape(), true)};
  // In a cluster each CTA stores its tile whole.
  if (!staging.buffer || type.getRank() != 2 || lookupNumCTAs(store) != 1)
    return staging;
  type = cast<RankedTensorType>(ttng::tmaStoreSource(store.getSrc(), staging.buffer).getType());
  auto enc = cast<NVMMASharedEncodingAttr>(staging.buffer.getEncoding());
  int64_t bits = type.getElementTypeBitWidth();
  int64_t span = enc.getSwizzlingByteWidth() * 8 / bits;
  if (enc.getTransposed() || span == 0 || type.getShape()[1] < 4 * span ||
      !registersSelectInnerParts(type, type.getShape()[1] / span))
    return staging;
  staging.pieces = unsigned(type.getShape()[1] / span);
  staging.buffer = MemDescType::get({2, type.getShape()[0], span}, type.getElementType(), enc,
                                    staging.buffer.getMemorySpace(), true);
  return staging;
}

int64_t sharedBesideRings(scf::ForOp loop, const ScratchContext &scratch) {
  int64_t buffers = 0, largestScratch = 0;
  llvm::SmallDenseSet<std::pair<Block *, Type>> seen;
  loop->walk([&](Operation *op) {
    if (auto store = dyn_cast<tt::DescriptorStoreOp>(op)) {
      if (MemDescType type = tmaStoreStaging(store).buffer)
        if (seen.insert({store->getBlock(), type}).second)
          buffers += ttng::bufferBytes(type);
      return;
    }
    // A conversion feeding TMA stores is made by the store into its
    // staging buffer (one CTA; in a cluster, where the buffer is split over
    // the CTAs as the conversion's source is: ttng::tmaStoreSource), so it
    // takes no scratch of its own.
    bool feedsTMAStores =
        isa<ConvertLayoutOp>(op) && llvm::all_of(op->getUsers(), [&](Operation *u) {
          if (lookupNumCTAs(op) == 1)
            return isa<tt::DescriptorStoreOp, tt::DescriptorReduceOp>(u);
          auto store = dyn_cast<tt::DescriptorStoreOp>(u);
          MemDescType staging = store ? tmaStoreStaging(store).buffer : MemDescType();
          return staging && ttng::tmaStoreSource(store.getSrc(), staging) != store.getSrc();
        });
    if (!feedsTMAStores)
      largestScratch = std::max(largestScratch, scratchBytes(op, scratch));
  });
  return buffers + largestScratch;
}

} // namespace kiln::nvidia

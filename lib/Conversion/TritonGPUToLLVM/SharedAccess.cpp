//===- SharedAccess.cpp - registers to and from shared memory -------------===//
#include "kiln/Conversion/TritonGPUToLLVM/SharedAccess.h"

#include "kiln/Layout/Queries.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <map>

using namespace mlir;
namespace layout = kiln::layout;
using kiln::layout::LinearLayout;

namespace kiln::lowering {

namespace {

/// Groups the registers by vector; fails if a group misses a slot.
std::optional<SmallVector<SharedAccessPlan::Access>> group(const LinearLayout &toShared,
                                                           unsigned vector) {
  std::map<std::pair<int32_t, int64_t>, unsigned> index;
  SmallVector<SharedAccessPlan::Access> accesses;
  for (int32_t reg = 0, e = toShared.getInDimSize(layout::kRegister); reg < e; ++reg) {
    auto out = toShared.apply({{layout::kRegister, reg}});
    int64_t offset = component(out, layout::kOffset);
    int32_t round = int32_t(component(out, layout::kRound));
    auto [it, inserted] = index.insert({{round, offset / vector}, unsigned(accesses.size())});
    if (inserted)
      accesses.push_back({offset - offset % vector, round,
                          SmallVector<SmallVector<unsigned, 1>>(vector)});
    accesses[it->second].registers[offset % vector].push_back(unsigned(reg));
  }
  for (const SharedAccessPlan::Access &a : accesses)
    for (const auto &slot : a.registers)
      if (slot.empty())
        return std::nullopt;
  return accesses;
}

Type vectorOf(Type element, unsigned n) {
  return n == 1 ? element : Type(VectorType::get({int64_t(n)}, element));
}

unsigned storedBytes(Type stored) { return std::max(1u, stored.getIntOrFloatBitWidth() / 8); }

/// The plan of the register -> offset map `toShared`: thread bits, then
/// the widest vector up to `maxVector` that every thread fills.
FailureOr<SharedAccessPlan> finishPlan(LinearLayout toShared, unsigned maxVector) {
  SharedAccessPlan plan;
  plan.toShared = std::move(toShared);
  for (StringRef in : {layout::kLane, layout::kWarp, layout::kBlock})
    for (unsigned i = 0, e = plan.toShared.getInDimSizeLog2(in); i < e; ++i)
      plan.threadMask |= component(plan.toShared.apply({{in, int32_t(1) << i}}), layout::kOffset);
  for (unsigned v = std::max(1u, maxVector);; v /= 2) {
    if (v > 1 && (plan.threadMask & (v - 1)))
      continue;
    if (std::optional<SmallVector<SharedAccessPlan::Access>> accesses = group(plan.toShared, v)) {
      plan.vector = v;
      plan.accesses = std::move(*accesses);
      return plan;
    }
    if (v == 1)
      return failure();
  }
}

/// register, lane, warp, block -> where `buffer` holds each element.
std::optional<LinearLayout> placed(const LinearLayout &regs, const BufferLayout &buffer) {
  std::optional<LinearLayout> toShared = regs.invertAndCompose(buffer.layout);
  if (toShared && buffer.place)
    toShared = toShared->compose(*buffer.place);
  return toShared;
}

/// The widest vector that never crosses a pad and stays aligned to its
/// size after the pads before it.
unsigned paddedVectorCap(const BufferLayout &buffer) {
  unsigned cap = ~0u;
  for (auto [interval, padding] : buffer.padding)
    cap = std::min(cap, 1u << std::min(interval, padding));
  return cap;
}

} // namespace

FailureOr<SharedAccessPlan> planSharedAccess(const LinearLayout &regs, const LinearLayout &shared,
                                             unsigned maxVector) {
  std::optional<LinearLayout> toShared = regs.invertAndCompose(shared);
  if (!toShared)
    return failure();
  return finishPlan(std::move(*toShared), maxVector);
}

FailureOr<SharedAccessPlan> planBufferAccess(const LinearLayout &regs, const BufferLayout &buffer,
                                             unsigned maxVector) {
  std::optional<LinearLayout> toShared = placed(regs, buffer);
  if (!toShared)
    return failure();
  FailureOr<SharedAccessPlan> plan =
      finishPlan(std::move(*toShared), std::min(maxVector, paddedVectorCap(buffer)));
  if (succeeded(plan))
    plan->padding = buffer.padding;
  return plan;
}

unsigned bufferVectorWidth(const LinearLayout &regs, const BufferLayout &buffer,
                           unsigned elemBits) {
  if (!buffer.place)
    return std::min(layout::sharedVectorWidth(regs, buffer.layout, elemBits),
                    paddedVectorCap(buffer));
  std::optional<LinearLayout> toShared = placed(regs, buffer);
  if (!toShared || !toShared->hasInDim(layout::kRegister))
    return 1;
  unsigned consecutive = toShared->getNumConsecutiveInOut(layout::kRegister, layout::kOffset);
  return std::min({consecutive, std::max(1u, 128 / elemBits), paddedVectorCap(buffer)});
}

Value threadOffset(OpBuilder &b, Location loc, const Context &ctx, const SharedAccessPlan &plan) {
  auto [lane, warp] = laneAndWarp(b, loc, ctx);
  Value acc = i32Constant(b, loc, 0);
  for (auto [in, id] : {std::pair<StringRef, Value>{layout::kLane, lane}, {layout::kWarp, warp}})
    for (unsigned i = 0, e = plan.toShared.getInDimSizeLog2(in); i < e; ++i) {
      int64_t image = component(plan.toShared.apply({{in, int32_t(1) << i}}), layout::kOffset);
      if (!image)
        continue;
      Value bit = LLVM::AndOp::create(b, loc, id, i32Constant(b, loc, int64_t(1) << i));
      Value set = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, bit, i32Constant(b, loc, 0));
      Value term = LLVM::SelectOp::create(b, loc, set, i32Constant(b, loc, image),
                                          i32Constant(b, loc, 0));
      acc = LLVM::XOrOp::create(b, loc, acc, term);
    }
  return acc;
}

Type storedType(Type elemType) {
  MLIRContext *ctx = elemType.getContext();
  if (isa<LLVM::LLVMPointerType>(elemType))
    return IntegerType::get(ctx, 64);
  if (elemType.isInteger(1))
    return IntegerType::get(ctx, 8);
  return elemType;
}

Value toStored(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  if (isa<LLVM::LLVMPointerType>(t))
    return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), v);
  if (t.isInteger(1))
    return LLVM::ZExtOp::create(b, loc, b.getI8Type(), v);
  return v;
}

Value fromStored(OpBuilder &b, Location loc, Value v, Type elemType) {
  if (isa<LLVM::LLVMPointerType>(elemType))
    return LLVM::IntToPtrOp::create(b, loc, elemType, v);
  if (elemType.isInteger(1))
    return LLVM::TruncOp::create(b, loc, elemType, v);
  return v;
}

Value accessAddress(OpBuilder &b, Location loc, Value base, Type elemType, Value threadOff,
                    const SharedAccessPlan &plan, int64_t offset) {
  Type stored = storedType(elemType);
  auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  if (!plan.padding.empty()) {
    // offset + sum over the intervals of (offset >> interval) << padding.
    Value logical = LLVM::XOrOp::create(b, loc, threadOff, i32Constant(b, loc, offset));
    Value physical = logical;
    for (auto [interval, padding] : plan.padding) {
      Value runs = LLVM::LShrOp::create(b, loc, logical, i32Constant(b, loc, interval));
      physical = LLVM::AddOp::create(
          b, loc, physical, LLVM::ShlOp::create(b, loc, runs, i32Constant(b, loc, padding)));
    }
    return LLVM::GEPOp::create(b, loc, ptr, stored, base, ValueRange{physical});
  }
  // Bits the thread part may set must be XORed in; the others are added,
  // so that they fold into the instruction's immediate offset.
  int64_t xorPart = offset & plan.threadMask, addPart = offset & ~plan.threadMask;
  Value dynamic = threadOff;
  if (xorPart)
    dynamic = LLVM::XOrOp::create(b, loc, dynamic, i32Constant(b, loc, xorPart));
  Value p = LLVM::GEPOp::create(b, loc, ptr, stored, base, ValueRange{dynamic});
  if (addPart)
    p = LLVM::GEPOp::create(b, loc, ptr, stored, p, ArrayRef<LLVM::GEPArg>{int32_t(addPart)});
  return p;
}

Value elementAddress(OpBuilder &b, Location loc, Value base, Type elemType, Value elements) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return LLVM::GEPOp::create(b, loc, ptr, storedType(elemType), base, ValueRange{elements});
}

void storeShared(OpBuilder &b, Location loc, Value base, Value threadOff,
                 const SharedAccessPlan &plan, int32_t round, ValueRange values, Type elemType) {
  Type stored = storedType(elemType);
  Type type = vectorOf(stored, plan.vector);
  for (const SharedAccessPlan::Access &a : plan.accesses) {
    if (a.round != round)
      continue;
    Value v;
    if (plan.vector == 1) {
      v = toStored(b, loc, values[a.registers[0][0]]);
    } else {
      v = LLVM::UndefOp::create(b, loc, type);
      for (auto [slot, regs] : llvm::enumerate(a.registers))
        v = LLVM::InsertElementOp::create(b, loc, v, toStored(b, loc, values[regs[0]]),
                                          i32Constant(b, loc, slot));
    }
    Value p = accessAddress(b, loc, base, elemType, threadOff, plan, a.offset);
    LLVM::StoreOp::create(b, loc, v, p, storedBytes(stored) * plan.vector);
  }
}

void loadShared(OpBuilder &b, Location loc, Value base, Value threadOff,
                const SharedAccessPlan &plan, int32_t round, MutableArrayRef<Value> values,
                Type elemType) {
  Type stored = storedType(elemType);
  Type type = vectorOf(stored, plan.vector);
  for (const SharedAccessPlan::Access &a : plan.accesses) {
    if (a.round != round)
      continue;
    Value p = accessAddress(b, loc, base, elemType, threadOff, plan, a.offset);
    Value v = LLVM::LoadOp::create(b, loc, type, p, storedBytes(stored) * plan.vector);
    for (auto [slot, regs] : llvm::enumerate(a.registers)) {
      Value element = plan.vector == 1 ? v
                                       : Value(LLVM::ExtractElementOp::create(
                                             b, loc, v, i32Constant(b, loc, slot)));
      element = fromStored(b, loc, element, elemType);
      for (unsigned reg : regs)
        values[reg] = element;
    }
  }
}

namespace {

/// This lane's row address for each access of `plan` (8x8 matrices of
/// 16-bit `elem` in the buffer at `base`).
SmallVector<Value> matrixAddresses(OpBuilder &b, Location loc, const Context &ctx, Value base,
                                   Type elem, const layout::MatrixAccessPlan &plan) {
  auto [lane, warp] = laneAndWarp(b, loc, ctx);
  Value off = i32Constant(b, loc, 0);
  auto add = [&](Value id, unsigned bit, int64_t image) {
    Value set = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne,
                                     LLVM::AndOp::create(b, loc, id, i32Constant(b, loc, 1 << bit)),
                                     i32Constant(b, loc, 0));
    off = LLVM::XOrOp::create(b, loc, off,
                              LLVM::SelectOp::create(b, loc, set, i32Constant(b, loc, image),
                                                     i32Constant(b, loc, 0)));
  };
  for (unsigned bit = 0; bit < 5; ++bit)
    add(lane, bit, plan.laneImages[bit]);
  for (auto [bit, image] : llvm::enumerate(plan.warpImages))
    add(warp, bit, image);
  auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  SmallVector<Value> addresses;
  for (const layout::MatrixAccessPlan::Access &access : plan.accesses) {
    // Bits the lane and warp part may set are XORed in, the others added.
    int64_t xorPart = access.offset & plan.threadMask, addPart = access.offset & ~plan.threadMask;
    Value dynamic = xorPart ? LLVM::XOrOp::create(b, loc, off, i32Constant(b, loc, xorPart)) : off;
    Value p = LLVM::GEPOp::create(b, loc, ptr, elem, base, ValueRange{dynamic});
    if (addPart)
      p = LLVM::GEPOp::create(b, loc, ptr, elem, p, ArrayRef<LLVM::GEPArg>{int32_t(addPart)});
    addresses.push_back(p);
  }
  return addresses;
}

} // namespace

void storeMatrices(OpBuilder &b, Location loc, const Context &ctx, Value base,
                   const layout::MatrixAccessPlan &plan, ArrayRef<Value> regs) {
  Type elem = regs.front().getType();
  auto pair = VectorType::get({2}, elem);
  SmallVector<Value> addresses = matrixAddresses(b, loc, ctx, base, elem, plan);
  for (auto [access, address] : llvm::zip(plan.accesses, addresses)) {
    SmallVector<Value, 4> words;
    for (int32_t m = 0; m < 4; ++m) {
      Value v = LLVM::UndefOp::create(b, loc, pair);
      for (int32_t i = 0; i < 2; ++i)
        v = LLVM::InsertElementOp::create(b, loc, v, regs[access.firstRegister + 2 * m + i],
                                          i32Constant(b, loc, i));
      words.push_back(LLVM::BitcastOp::create(b, loc, b.getI32Type(), v));
    }
    ctx.target.storeMatrices(b, loc, address, words, plan.transposed);
  }
}

void loadMatrices(OpBuilder &b, Location loc, const Context &ctx, Value base, Type elem,
                  const layout::MatrixAccessPlan &plan, MutableArrayRef<Value> regs) {
  auto pair = VectorType::get({2}, elem);
  SmallVector<Value> addresses = matrixAddresses(b, loc, ctx, base, elem, plan);
  for (auto [access, address] : llvm::zip(plan.accesses, addresses)) {
    SmallVector<Value, 4> words = ctx.target.loadMatrices(b, loc, address, plan.transposed);
    for (int32_t m = 0; m < 4; ++m) {
      Value v = LLVM::BitcastOp::create(b, loc, pair, words[m]);
      for (int32_t i = 0; i < 2; ++i)
        regs[access.firstRegister + 2 * m + i] =
            LLVM::ExtractElementOp::create(b, loc, v, i32Constant(b, loc, i));
    }
  }
}

} // namespace kiln::lowering

//===- Combine.cpp - combine regions and scratch accesses -----------------===//
#include "Combine.h"

#include "kiln/Analysis/ReducePlan.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace kiln::lowering {

LogicalResult checkAxisPlan(Operation *op, unsigned warpSize) {
  llvm::Error error = llvm::Error::success();
  if (isa<tt::ReduceOp>(op)) {
    if (auto plan = planReduce(op, warpSize); !plan)
      error = plan.takeError();
  } else if (auto plan = planScan(op); !plan) {
    error = plan.takeError();
  }
  if (!error)
    return success();
  return op->emitError() << "op '" << op->getName() << "' cannot be lowered to LLVM yet: "
                         << llvm::toString(std::move(error));
}

Combiner::Combiner(Region &region) : region(region) {
  Block &body = region.front();
  if (body.getNumArguments() != 2 || !llvm::hasSingleElement(body.without_terminator()))
    return;
  Operation &op = body.front();
  Operation *ret = body.getTerminator();
  commutative = op.hasTrait<OpTrait::IsCommutative>() && op.getNumOperands() == 2 &&
                op.getNumResults() == 1 && ret->getNumOperands() == 1 &&
                ret->getOperand(0) == op.getResult(0) &&
                llvm::is_contained(op.getOperands(), body.getArgument(0)) &&
                llvm::is_contained(op.getOperands(), body.getArgument(1));
  reassociable = commutative &&
                 isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
                     arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp,
                     arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::AddIOp, arith::MulIOp>(op);
}

Tuple Combiner::operator()(OpBuilder &b, Location, const Tuple &lhs, const Tuple &rhs) const {
  Block &body = region.front();
  IRMapping map;
  unsigned n = lhs.size();
  for (unsigned i = 0; i < n; ++i) {
    map.map(body.getArgument(i), lhs[i]);
    map.map(body.getArgument(n + i), rhs[i]);
  }
  for (Operation &op : body.without_terminator())
    b.clone(op, map);
  Tuple result;
  for (Value v : body.getTerminator()->getOperands())
    result.push_back(map.lookupOrDefault(v));
  return result;
}

Tuple Combiner::ordered(OpBuilder &b, Location loc, Value bitSet, const Tuple &mine,
                        const Tuple &theirs) const {
  if (commutative)
    return (*this)(b, loc, mine, theirs);
  // Built in sequence: the IR must not depend on argument evaluation order.
  Tuple lo = select(b, loc, bitSet, theirs, mine);
  Tuple hi = select(b, loc, bitSet, mine, theirs);
  return (*this)(b, loc, lo, hi);
}

Tuple select(OpBuilder &b, Location loc, Value cond, const Tuple &ifTrue, const Tuple &ifFalse) {
  Tuple result;
  for (auto [t, f] : llvm::zip_equal(ifTrue, ifFalse))
    result.push_back(LLVM::SelectOp::create(b, loc, cond, t, f));
  return result;
}

Value gatherBits(OpBuilder &b, Location loc, Value id, ArrayRef<unsigned> bits) {
  Value acc = i32Constant(b, loc, 0);
  // Runs of consecutive bits move with one shift and mask.
  for (unsigned i = 0; i < bits.size();) {
    unsigned j = i + 1;
    while (j < bits.size() && bits[j] == bits[j - 1] + 1 && bits[j] - bits[i] == j - i)
      ++j;
    Value part = id;
    if (bits[i] > i)
      part = LLVM::LShrOp::create(b, loc, part, i32Constant(b, loc, bits[i] - i));
    else if (bits[i] < i)
      part = LLVM::ShlOp::create(b, loc, part, i32Constant(b, loc, i - bits[i]));
    uint32_t mask = ((uint32_t(1) << (j - i)) - 1) << i;
    part = LLVM::AndOp::create(b, loc, part, i32Constant(b, loc, int64_t(mask)));
    acc = i == 0 ? part : Value(LLVM::OrOp::create(b, loc, acc, part));
    i = j;
  }
  return acc;
}

Value bitIsSet(OpBuilder &b, Location loc, Value id, unsigned bit) {
  Value masked = LLVM::AndOp::create(b, loc, id, i32Constant(b, loc, int64_t(1) << bit));
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, masked, i32Constant(b, loc, 0));
}

Value bitsClear(OpBuilder &b, Location loc, Value id, uint64_t mask) {
  if (!mask)
    return LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
  Value masked = LLVM::AndOp::create(b, loc, id, i32Constant(b, loc, int64_t(uint32_t(mask))));
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, masked, i32Constant(b, loc, 0));
}

namespace {
Type memoryType(OpBuilder &b, Type elem) {
  return elem.isInteger(1) ? Type(b.getI8Type()) : elem;
}
unsigned bytesOf(Type t) { return std::max(1u, t.getIntOrFloatBitWidth() / 8); }
} // namespace

Value scratchElement(OpBuilder &b, Location loc, Value base, int64_t byteOffset, Type elem,
                     Value index) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value start = base;
  if (byteOffset)
    start = LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(), base,
                                ArrayRef<LLVM::GEPArg>{int32_t(byteOffset)});
  return LLVM::GEPOp::create(b, loc, ptr, memoryType(b, elem), start, ValueRange{index});
}

void storeScratch(OpBuilder &b, Location loc, Value ptr, Value value) {
  Type mem = memoryType(b, value.getType());
  if (mem != value.getType())
    value = LLVM::ZExtOp::create(b, loc, mem, value);
  LLVM::StoreOp::create(b, loc, value, ptr, bytesOf(mem));
}

SmallVector<Value> loadScratch(OpBuilder &b, Location loc, Value ptr, Type elem, unsigned count) {
  Type mem = memoryType(b, elem);
  unsigned bytes = bytesOf(mem);
  unsigned vec = 1;
  while (vec * 2 <= count && vec * 2 * bytes <= 16)
    vec *= 2;
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  SmallVector<Value> values;
  for (unsigned i = 0; i < count; i += vec) {
    Value at = i == 0 ? ptr
                      : Value(LLVM::GEPOp::create(b, loc, ptrType, mem, ptr,
                                                  ArrayRef<LLVM::GEPArg>{int32_t(i)}));
    if (vec == 1) {
      values.push_back(LLVM::LoadOp::create(b, loc, mem, at, bytes));
      continue;
    }
    Value v = LLVM::LoadOp::create(b, loc, VectorType::get(vec, mem), at, vec * bytes);
    for (unsigned k = 0; k < vec; ++k)
      values.push_back(LLVM::ExtractElementOp::create(b, loc, v, i32Constant(b, loc, k)));
  }
  if (mem != elem)
    for (Value &v : values)
      v = LLVM::TruncOp::create(b, loc, elem, v);
  return values;
}

} // namespace kiln::lowering

//===- Lowering.cpp - types and helpers of the TTGIR-to-LLVM patterns -----===//
#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"
#include "kiln/Layout/Queries.h"

#include "kiln/Analysis/Allocation.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace kiln::lowering {

TypeConverter::TypeConverter(MLIRContext *ctx, const LowerToLLVMOptions &options)
    : LLVMTypeConverter(ctx, options) {
  addConversion([ctx](tt::PointerType type) -> Type {
    return LLVM::LLVMPointerType::get(ctx, type.getAddressSpace());
  });
  addConversion([ctx](ttg::MemDescType) -> Type { return LLVM::LLVMPointerType::get(ctx, 3); });
  // Async tokens only order ops; they carry no data.
  addConversion([ctx](ttg::AsyncTokenType) -> Type { return IntegerType::get(ctx, 32); });
  // The generic address of the descriptor's CUtensorMap (a kernel's
  // descriptor parameter is the map itself, by value; FuncOpToLLVM.cpp).
  addConversion([ctx](tt::TensorDescType) -> Type { return LLVM::LLVMPointerType::get(ctx, 0); });
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    if (!isa_and_nonnull<ttg::DistributedEncodingInterface>(type.getEncoding()))
      return std::nullopt;
    llvm::Expected<layout::LinearLayout> ll = ttg::toLinearLayout(type);
    if (!ll) {
      llvm::consumeError(ll.takeError());
      return Type();
    }
    Type element = convertType(type.getElementType());
    if (!element)
      return Type();
    SmallVector<Type> fields(ll->getInDimSize(layout::kRegister), element);
    return LLVM::LLVMStructType::getLiteral(type.getContext(), fields);
  });
}

layout::LinearLayout globalLayoutOf(Type tensorType) {
  llvm::Expected<layout::LinearLayout> ll = ttg::toLinearLayout(cast<RankedTensorType>(tensorType));
  if (!ll)
    llvm::report_fatal_error(llvm::Twine("lowering a tensor whose layout was not checked: ") +
                             llvm::toString(ll.takeError()));
  return std::move(*ll);
}

layout::LinearLayout layoutOf(Type tensorType) {
  llvm::Expected<layout::LinearLayout> tile = layout::ctaTile(globalLayoutOf(tensorType));
  if (!tile)
    llvm::report_fatal_error(llvm::Twine("lowering a tensor whose CTA tiles were not checked: ") +
                             llvm::toString(tile.takeError()));
  return std::move(*tile);
}

SmallVector<Value> unpack(OpBuilder &b, Location loc, Value st) {
  auto type = cast<LLVM::LLVMStructType>(st.getType());
  SmallVector<Value> values;
  for (unsigned i = 0, e = type.getBody().size(); i < e; ++i)
    values.push_back(LLVM::ExtractValueOp::create(b, loc, st, i));
  return values;
}

Value pack(OpBuilder &b, Location loc, Type structType, ValueRange values) {
  Value st = LLVM::UndefOp::create(b, loc, structType);
  for (auto [i, value] : llvm::enumerate(values))
    st = LLVM::InsertValueOp::create(b, loc, st, value, i);
  return st;
}

Value i32Constant(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(int32_t(value)));
}

FailureOr<mlir::TypeConverter::SignatureConversion>
kernelABISignature(const mlir::TypeConverter &converter, FunctionType type, bool deviceFunction) {
  mlir::TypeConverter::SignatureConversion signature(type.getNumInputs());
  for (auto [i, input] : llvm::enumerate(type.getInputs())) {
    Type converted = converter.convertType(input);
    if (!converted)
      return failure();
    signature.addInputs(i, converted);
  }
  if (deviceFunction)
    signature.addInputs(LLVM::LLVMPointerType::get(type.getContext(), 3));
  auto global = LLVM::LLVMPointerType::get(type.getContext(), 1);
  signature.addInputs({global, global});
  return signature;
}

int32_t component(ArrayRef<std::pair<std::string, int32_t>> out, StringRef name) {
  for (auto &[n, v] : out)
    if (n == name)
      return v;
  return 0;
}

std::pair<Value, Value> laneAndWarp(OpBuilder &b, Location loc, const Context &ctx) {
  Value tid = ctx.target.threadId(b, loc);
  Value warpSize = i32Constant(b, loc, ctx.warpSize);
  return {LLVM::URemOp::create(b, loc, tid, warpSize), LLVM::UDivOp::create(b, loc, tid, warpSize)};
}

Value functionSharedMemory(OpBuilder &b, Location loc, Operation *op) {
  // A device function (internal linkage) gets its caller's part of shared
  // memory as the argument before the two hidden scratch pointers.
  auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
  if (func && func.getLinkage() == LLVM::Linkage::Internal && !func.getBody().empty() &&
      func.getBody().front().getNumArguments() >= 3)
    return func.getBody().front().getArguments().drop_back(2).back();
  return LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3),
                                   kSharedMemoryGlobal);
}

FailureOr<Value> sharedMemoryBase(OpBuilder &b, Location loc, Operation *owner) {
  auto offset = owner->getAttrOfType<IntegerAttr>(kAllocationOffsetAttr);
  if (!offset)
    return owner->emitError() << "op '" << owner->getName()
                              << "' uses shared memory but has no allocation.offset (the llir "
                                 "stage's llir.allocate-shared-memory must run before lowering)";
  auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = functionSharedMemory(b, loc, owner);
  if (offset.getInt() == 0)
    return base;
  return Value(LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(), base,
                                   ArrayRef<LLVM::GEPArg>{int32_t(offset.getInt())}));
}

FailureOr<Value> globalScratchBase(OpBuilder &b, Location loc, const Context &ctx,
                                   Operation *owner) {
  auto offset = owner->getAttrOfType<IntegerAttr>("ttg.global_scratch_memory_offset");
  auto module = owner->getParentOfType<ModuleOp>();
  auto size = module ? module->getAttrOfType<IntegerAttr>("ttg.global_scratch_memory_size")
                     : IntegerAttr();
  if (!offset || !size)
    return owner->emitError() << "op '" << owner->getName()
                              << "' uses global scratch memory but has no offset yet (the llir "
                                 "stage's llir.allocate-global-scratch must run before lowering)";
  auto func = owner->getParentOfType<LLVM::LLVMFuncOp>();
  if (!func || func.getBody().empty() || func.getBody().front().getNumArguments() < 2)
    return owner->emitError() << "op '" << owner->getName()
                              << "' is not in a lowered function with the hidden scratch pointers";
  Type i64 = b.getI64Type();
  auto constant = [&](int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };
  // The hidden parameters are the last two: global_scratch, profile_scratch.
  Value base = func.getBody().front().getArguments().drop_back().back();
  Value bytes = constant(offset.getInt());
  if (func.getLinkage() != LLVM::Linkage::Internal) {
    // A kernel: its program's slice starts at (linear program id) * size.
    // Per CTA, clusters included: launchers allocate a slice for each CTA
    // of the grid (programs times num_ctas).
    auto wide = [&](Value v) { return LLVM::ZExtOp::create(b, loc, i64, v); };
    auto pid = [&](unsigned axis) { return wide(ctx.target.programId(b, loc, axis, 1)); };
    auto count = [&](unsigned axis) { return wide(ctx.target.numPrograms(b, loc, axis, 1)); };
    Value linear = LLVM::AddOp::create(
        b, loc, pid(0),
        LLVM::MulOp::create(
            b, loc, count(0),
            LLVM::AddOp::create(b, loc, pid(1), LLVM::MulOp::create(b, loc, count(1), pid(2)))));
    bytes = LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, linear, constant(size.getInt())),
                                bytes);
  }
  // A device function's pointer already is its call's part of the slice.
  return Value(LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                                   ArrayRef<LLVM::GEPArg>{bytes}));
}

Value shuffle(OpBuilder &b, Location loc, const Context &ctx, Value v, TargetInfo::Shuffle kind,
              Value laneOrMask) {
  Type type = v.getType();
  Type i32 = b.getI32Type();
  if (isa<LLVM::LLVMPointerType>(type)) {
    Value asInt = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), v);
    return LLVM::IntToPtrOp::create(b, loc, type, shuffle(b, loc, ctx, asInt, kind, laneOrMask));
  }
  unsigned bits = type.getIntOrFloatBitWidth();
  Type asInt = b.getIntegerType(bits);
  Value x = type == asInt ? v : Value(LLVM::BitcastOp::create(b, loc, asInt, v));
  Value result;
  if (bits == 64) {
    Value lo = LLVM::TruncOp::create(b, loc, i32, x);
    Value hi = LLVM::TruncOp::create(
        b, loc, i32, LLVM::LShrOp::create(b, loc, x, LLVM::ConstantOp::create(b, loc, asInt, 32)));
    lo = ctx.target.shuffle(b, loc, lo, kind, laneOrMask);
    hi = ctx.target.shuffle(b, loc, hi, kind, laneOrMask);
    Value wide = LLVM::ShlOp::create(b, loc, LLVM::ZExtOp::create(b, loc, asInt, hi),
                                     LLVM::ConstantOp::create(b, loc, asInt, 32));
    result = LLVM::OrOp::create(b, loc, wide, LLVM::ZExtOp::create(b, loc, asInt, lo));
  } else if (bits < 32) {
    Value wide = LLVM::ZExtOp::create(b, loc, i32, x);
    result = LLVM::TruncOp::create(b, loc, asInt, ctx.target.shuffle(b, loc, wide, kind, laneOrMask));
  } else {
    result = ctx.target.shuffle(b, loc, x, kind, laneOrMask);
  }
  return type == asInt ? result : Value(LLVM::BitcastOp::create(b, loc, type, result));
}

Value shuffle(OpBuilder &b, Location loc, const Context &ctx, Value v, TargetInfo::Shuffle kind,
              int32_t laneOrMask) {
  return shuffle(b, loc, ctx, v, kind, i32Constant(b, loc, laneOrMask));
}

Value xorOfBases(OpBuilder &b, Location loc, Value id, const layout::LinearLayout::InDim &in,
                 unsigned out, Value acc) {
  for (auto [bit, basis] : llvm::enumerate(in.bases)) {
    if (basis[out] == 0)
      continue;
    Value set = LLVM::AndOp::create(b, loc, id, i32Constant(b, loc, int64_t(1) << bit));
    Value isSet = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, set, i32Constant(b, loc, 0));
    Value term = LLVM::SelectOp::create(b, loc, isSet, i32Constant(b, loc, basis[out]),
                                        i32Constant(b, loc, 0));
    acc = acc ? Value(LLVM::XOrOp::create(b, loc, acc, term)) : term;
  }
  return acc;
}

SmallVector<SmallVector<Value>> registerCoordinates(OpBuilder &b, Location loc,
                                                    const layout::LinearLayout &ll,
                                                    const Context &ctx) {
  auto [lane, warp] = laneAndWarp(b, loc, ctx);
  const auto &ins = ll.getInDims();
  unsigned rank = ll.getNumOutDims();
  bool overCTAs = ll.getInDimSize(layout::kBlock) > 1;
  Value block = overCTAs ? ctx.target.blockId(b, loc) : Value();
  // The thread's part of L, shared by all its registers (L is linear).
  SmallVector<Value> threadPart(rank);
  for (unsigned d = 0; d < rank; ++d) {
    Value acc = xorOfBases(b, loc, lane, ins[ll.getInDimIndex(layout::kLane)], d, Value());
    acc = xorOfBases(b, loc, warp, ins[ll.getInDimIndex(layout::kWarp)], d, acc);
    if (overCTAs)
      acc = xorOfBases(b, loc, block, ins[ll.getInDimIndex(layout::kBlock)], d, acc);
    threadPart[d] = acc;
  }
  unsigned regIndex = ll.getInDimIndex(layout::kRegister);
  SmallVector<SmallVector<Value>> coords;
  for (int32_t reg = 0, e = ll.getInDimSize(layout::kRegister); reg < e; ++reg) {
    SmallVector<int32_t> in(ll.getNumInDims(), 0);
    in[regIndex] = reg;
    SmallVector<int32_t> regPart = ll.apply(in);
    SmallVector<Value> c;
    for (unsigned d = 0; d < rank; ++d) {
      Value constant = i32Constant(b, loc, regPart[d]);
      c.push_back(threadPart[d] ? Value(LLVM::XOrOp::create(b, loc, threadPart[d], constant))
                                : constant);
    }
    coords.push_back(std::move(c));
  }
  return coords;
}

Value ownerPredicate(OpBuilder &b, Location loc, const Context &ctx,
                     const layout::LinearLayout *ll) {
  // A scalar: every thread holds it.
  uint64_t laneFree = ll ? ll->getFreeVariableMask(layout::kLane) : ctx.warpSize - 1;
  uint64_t warpFree = ll ? ll->getFreeVariableMask(layout::kWarp) : ctx.numWarps - 1;
  uint64_t blockFree = ll ? ll->getFreeVariableMask(layout::kBlock) : ctx.numCTAs - 1;
  if (!laneFree && !warpFree && !blockFree)
    return Value();
  auto [lane, warp] = laneAndWarp(b, loc, ctx);
  auto isZero = [&](Value v, uint64_t bits) -> Value {
    Value masked = LLVM::AndOp::create(b, loc, v, i32Constant(b, loc, int64_t(bits)));
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, masked, i32Constant(b, loc, 0));
  };
  Value pred;
  if (laneFree)
    pred = isZero(lane, laneFree);
  if (warpFree) {
    Value w = isZero(warp, warpFree);
    pred = pred ? Value(LLVM::AndOp::create(b, loc, pred, w)) : w;
  }
  if (blockFree) {
    Value c = isZero(ctx.target.blockId(b, loc), blockFree);
    pred = pred ? Value(LLVM::AndOp::create(b, loc, pred, c)) : c;
  }
  return pred;
}

} // namespace kiln::lowering

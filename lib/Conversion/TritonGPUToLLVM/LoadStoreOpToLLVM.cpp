//===- LoadStoreOpToLLVM.cpp - masked, vectorised global accesses ---------===//
//
// Consecutive registers that hold consecutive elements move in one vector
// access of the width the pass chose before converting (AccessWidth.h). A
// masked access is one predicated instruction from the target (as Triton
// 3.6 emits it: `@p ld.global.v4.b32`, masked-off registers set to `other`
// under `@!p`), not a branch, so all of a thread's accesses can be in flight
// at once. Cache and eviction hints become the PTX access Triton emits for
// them (e.g. ld.global.cg.v4.b32, or an L1 eviction priority with an L2
// policy); unmasked accesses without hints stay LLVM loads and stores. A
// volatile load, and a `.cv` store, are volatile LLVM accesses (in an
// scf.if when masked).
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace kiln::lowering {
namespace {

unsigned bitsOf(Type memElem) {
  return isa<LLVM::LLVMPointerType>(memElem) ? 64 : memElem.getIntOrFloatBitWidth();
}

/// The hints of an access that PTX has for it (ld: .ca .cg .cs .cv; st:
/// .wb .cg .cs .wt), nullopt when there are none.
std::optional<TargetInfo::CacheHints> hintsOf(tt::CacheModifier cache, tt::EvictionPolicy evict,
                                              bool isLoad) {
  using CM = tt::CacheModifier;
  TargetInfo::CacheHints hints;
  bool valid = isLoad ? (cache == CM::CA || cache == CM::CG || cache == CM::CS || cache == CM::CV)
                      : (cache == CM::WB || cache == CM::CG || cache == CM::CS || cache == CM::WT);
  if (valid)
    hints.cache = tt::stringifyCacheModifier(cache);
  if (evict != tt::EvictionPolicy::NORMAL)
    hints.evict = tt::stringifyEvictionPolicy(evict);
  if (hints.cache.empty() && hints.evict.empty())
    return std::nullopt;
  return hints;
}

struct Operands {
  SmallVector<Value> ptrs, masks, values;
};

Operands unpackAll(OpBuilder &b, Location loc, bool isTensor, Value ptr, Value mask,
                   Value values) {
  Operands o;
  auto get = [&](Value v) {
    return !v ? SmallVector<Value>() : isTensor ? unpack(b, loc, v) : SmallVector<Value>{v};
  };
  o.ptrs = get(ptr);
  o.masks = get(mask);
  o.values = get(values);
  return o;
}

/// Registers r..r+vec-1 of `values` as one memory value (i1 widened to i8).
Value gather(OpBuilder &b, Location loc, ArrayRef<Value> values, size_t r, unsigned vec,
             Type memElem) {
  auto toMem = [&](Value v) -> Value {
    return v.getType() == memElem ? v : LLVM::ZExtOp::create(b, loc, memElem, v);
  };
  if (vec == 1)
    return toMem(values[r]);
  Value v = LLVM::UndefOp::create(b, loc, VectorType::get(vec, memElem));
  for (unsigned k = 0; k < vec; ++k)
    v = LLVM::InsertElementOp::create(b, loc, v, toMem(values[r + k]), i32Constant(b, loc, k));
  return v;
}

struct LoadLowering : OpConversionPattern<tt::LoadOp> {
  LoadLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(tt::LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto tensor = dyn_cast<RankedTensorType>(op.getType());
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type elem = getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    if (!resultType || !elem)
      return failure();
    Type memElem = elem.isInteger(1) ? rewriter.getI8Type() : elem;
    unsigned vec = ctx.vectorWidth(op);
    unsigned alignment = vec * std::max(1u, bitsOf(memElem) / 8);
    bool isVolatile = op.getIsVolatile();
    std::optional<TargetInfo::CacheHints> hints =
        isVolatile ? std::nullopt : hintsOf(op.getCache(), op.getEvict(), /*isLoad=*/true);
    Operands o = unpackAll(rewriter, loc, bool(tensor), adaptor.getPtr(), adaptor.getMask(),
                           adaptor.getOther());
    Type access = vec > 1 ? Type(VectorType::get(vec, memElem)) : memElem;
    SmallVector<Value> results;
    for (size_t r = 0; r < o.ptrs.size(); r += vec) {
      auto load = [&](OpBuilder &b, Location l) -> Value {
        if (hints)
          return ctx.target.loadGlobal(b, l, o.ptrs[r], access, *hints);
        return LLVM::LoadOp::create(b, l, access, o.ptrs[r], alignment, isVolatile);
      };
      Value loaded;
      if (o.masks.empty()) {
        loaded = load(rewriter, loc);
      } else if (!isVolatile) {
        Value other = o.values.empty() ? Value() : gather(rewriter, loc, o.values, r, vec, memElem);
        loaded = ctx.target.loadGlobal(rewriter, loc, o.ptrs[r], access,
                                       hints.value_or(TargetInfo::CacheHints{}), o.masks[r],
                                       other);
      } else {
        // Masked-off elements read `other`, or zero without it.
        auto ifOp = scf::IfOp::create(
            rewriter, loc, o.masks[r],
            [&](OpBuilder &b, Location l) { scf::YieldOp::create(b, l, load(b, l)); },
            [&](OpBuilder &b, Location l) {
              Value other = o.values.empty() ? Value(LLVM::ZeroOp::create(b, l, access))
                                             : gather(b, l, o.values, r, vec, memElem);
              scf::YieldOp::create(b, l, other);
            });
        loaded = ifOp.getResult(0);
      }
      for (unsigned k = 0; k < vec; ++k) {
        Value e = vec == 1 ? loaded
                           : Value(LLVM::ExtractElementOp::create(rewriter, loc, loaded,
                                                                  i32Constant(rewriter, loc, k)));
        if (e.getType() != elem)
          e = LLVM::TruncOp::create(rewriter, loc, elem, e);
        results.push_back(e);
      }
    }
    rewriter.replaceOp(op, tensor ? pack(rewriter, loc, resultType, results) : results[0]);
    return success();
  }
  const Context &ctx;
};

struct StoreLowering : OpConversionPattern<tt::StoreOp> {
  StoreLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(tt::StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto tensor = dyn_cast<RankedTensorType>(op.getValue().getType());
    Type elem = getTypeConverter()->convertType(getElementTypeOrSelf(op.getValue().getType()));
    if (!elem)
      return failure();
    Type memElem = elem.isInteger(1) ? rewriter.getI8Type() : elem;
    std::optional<layout::LinearLayout> ll;
    if (tensor)
      ll = globalLayoutOf(tensor);
    unsigned vec = ctx.vectorWidth(op);
    unsigned alignment = vec * std::max(1u, bitsOf(memElem) / 8);
    bool isVolatile = op.getCache() == tt::CacheModifier::CV;
    std::optional<TargetInfo::CacheHints> hints =
        hintsOf(op.getCache(), op.getEvict(), /*isLoad=*/false);
    // Each element is stored once: a register, lane or warp whose bits are
    // free in the layout (it holds a copy of an element another one holds)
    // stores nothing, and a scalar is stored by thread 0 alone.
    uint64_t copies = ll ? ll->getFreeVariableMask(layout::kRegister) : 0;
    Value holder = ownerPredicate(rewriter, loc, ctx, ll ? &*ll : nullptr);
    Operands o = unpackAll(rewriter, loc, bool(tensor), adaptor.getPtr(), adaptor.getMask(),
                           adaptor.getValue());
    if (holder && !isVolatile) {
      if (o.masks.empty())
        o.masks.assign(o.ptrs.size(), holder);
      else
        for (Value &m : o.masks)
          m = LLVM::AndOp::create(rewriter, loc, m, holder);
    }
    for (size_t r = 0; r < o.ptrs.size(); r += vec) {
      if (r & copies)
        continue;
      Value value = gather(rewriter, loc, o.values, r, vec, memElem);
      auto store = [&](OpBuilder &b, Location l) {
        if (hints)
          return ctx.target.storeGlobal(b, l, o.ptrs[r], value, *hints);
        LLVM::StoreOp::create(b, l, value, o.ptrs[r], alignment, isVolatile);
      };
      if (o.masks.empty()) {
        store(rewriter, loc);
        continue;
      }
      if (!isVolatile) {
        ctx.target.storeGlobal(rewriter, loc, o.ptrs[r], value,
                               hints.value_or(TargetInfo::CacheHints{}), o.masks[r]);
        continue;
      }
      scf::IfOp::create(rewriter, loc, o.masks[r], [&](OpBuilder &b, Location l) {
        store(b, l);
        scf::YieldOp::create(b, l);
      });
    }
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

} // namespace

void populateLoadStorePatterns(TypeConverter &converter, const Context &ctx,
                               RewritePatternSet &patterns) {
  patterns.add<LoadLowering, StoreLowering>(converter, ctx);
}

} // namespace kiln::lowering

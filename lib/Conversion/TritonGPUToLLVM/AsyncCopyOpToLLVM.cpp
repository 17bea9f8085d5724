//===- AsyncCopyOpToLLVM.cpp - async copies, their groups and waits -------===//
//
// ttg.async_copy_global_to_local writes each register's element where
// ttg.local_store would (the plan of SharedAccess.h), but straight from
// global memory: one asynchronous copy per vector of registers that are
// consecutive both in the buffer and at their pointers. A masked-off vector
// is copied from 0 bytes, which zero-fills it (so `other` must be zero).
// Threads whose elements other threads also hold copy nothing, so that
// each element is written once. Commit groups and waits map one to one to
// the target's; tokens only order ops and lower to an i32 0.
//
//===----------------------------------------------------------------------===//
#include "kiln/Analysis/AccessWidth.h"
#include "kiln/Conversion/TritonGPUToLLVM/SharedAccess.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Layout/Queries.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
namespace layout = kiln::layout;
using kiln::layout::LinearLayout;

namespace kiln::lowering {
namespace {

/// Whether every access of `plan` covers registers r..r+vector-1 with r a
/// multiple of the vector: the registers whose pointers the width analysis
/// found consecutive.
bool registersConsecutive(const SharedAccessPlan &plan) {
  for (const SharedAccessPlan::Access &a : plan.accesses) {
    unsigned first = a.registers[0][0];
    if (first % plan.vector)
      return false;
    for (auto [slot, regs] : llvm::enumerate(a.registers))
      if (!llvm::is_contained(regs, first + unsigned(slot)))
        return false;
  }
  return true;
}

/// The widest plan of at most `maxVector` elements whose accesses are
/// consecutive registers; failure when the buffer lacks an element.
FailureOr<SharedAccessPlan> copyPlan(const LinearLayout &regs, const BufferLayout &shared,
                                     unsigned maxVector) {
  for (unsigned v = maxVector;;) {
    FailureOr<SharedAccessPlan> plan = planBufferAccess(regs, shared, v);
    if (failed(plan) || plan->vector == 1 || registersConsecutive(*plan))
      return plan;
    v = plan->vector / 2;
  }
}

bool isZeroConstant(Value v) {
  // Bitwise zero: the fill cp.async writes (-0.0 is not).
  return matchPattern(v, m_Zero()) || matchPattern(v, m_PosZeroFloat());
}

unsigned elementBits(ttg::AsyncCopyGlobalToLocalOp op) {
  return op.getResult().getType().getElementType().getIntOrFloatBitWidth();
}

struct AsyncCopyLowering : OpConversionPattern<ttg::AsyncCopyGlobalToLocalOp> {
  AsyncCopyLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttg::AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ttg::MemDescType buffer = op.getResult().getType();
    Type elemType = getTypeConverter()->convertType(buffer.getElementType());
    FailureOr<BufferLayout> shared = bufferLayoutOf(op, buffer);
    if (!elemType || failed(shared))
      return failure();
    LinearLayout regs = layoutOf(op.getSrc().getType());
    // The width was planned before conversion; the same plan comes back.
    FailureOr<SharedAccessPlan> plan = copyPlan(regs, *shared, ctx.vectorWidth(op));
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, "the buffer does not hold the tensor");
    SmallVector<Value> ptrs = unpack(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpack(rewriter, loc, adaptor.getMask());
    Value off = threadOffset(rewriter, loc, ctx, *plan);
    unsigned bytes = plan->vector * elementBits(op) / 8;
    auto copyAll = [&](OpBuilder &b) {
      for (const SharedAccessPlan::Access &a : plan->accesses) {
        unsigned reg = a.registers[0][0];
        Value dst = accessAddress(b, loc, adaptor.getResult(), elemType, off, *plan, a.offset);
        ctx.target.asyncCopy(b, loc, dst, ptrs[reg], bytes, masks.empty() ? Value() : masks[reg]);
      }
    };
    // The predicate is the same for all of a thread's copies: one branch.
    // Per CTA: every CTA of a cluster fills its own buffer, copies of an
    // element in other CTAs included.
    if (Value owner = ownerPredicate(rewriter, loc, ctx, &regs)) {
      scf::IfOp::create(rewriter, loc, owner, [&](OpBuilder &b, Location l) {
        copyAll(b);
        scf::YieldOp::create(b, l);
      });
    } else {
      copyAll(rewriter);
    }
    rewriter.replaceOp(op, i32Constant(rewriter, loc, 0));
    return success();
  }
  const Context &ctx;
};

struct AsyncCommitGroupLowering : OpConversionPattern<ttg::AsyncCommitGroupOp> {
  AsyncCommitGroupLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttg::AsyncCommitGroupOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    ctx.target.asyncCommitGroup(rewriter, op.getLoc());
    rewriter.replaceOp(op, i32Constant(rewriter, op.getLoc(), 0));
    return success();
  }
  const Context &ctx;
};

struct AsyncWaitLowering : OpConversionPattern<ttg::AsyncWaitOp> {
  AsyncWaitLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttg::AsyncWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    ctx.target.asyncWaitGroup(rewriter, op.getLoc(), unsigned(op.getNum()));
    rewriter.replaceOp(op, i32Constant(rewriter, op.getLoc(), 0));
    return success();
  }
  const Context &ctx;
};

} // namespace

LogicalResult checkAsyncLowering(Operation *op, const TargetInfo &target) {
  auto fail = [&](const Twine &why) {
    return op->emitError() << "op '" << op->getName() << "' cannot be lowered to LLVM: " << why;
  };
  if (!isa<ttg::AsyncCopyGlobalToLocalOp, ttg::AsyncCommitGroupOp, ttg::AsyncWaitOp>(op))
    return success();
  if (std::string why = target.asyncCopyUnsupported(); !why.empty())
    return fail(why);
  auto copy = dyn_cast<ttg::AsyncCopyGlobalToLocalOp>(op);
  if (copy && copy.getOther() && !isZeroConstant(copy.getOther()))
    return fail("masked-off elements are zero-filled, so `other` must be a zero constant");
  return success();
}

FailureOr<unsigned> asyncCopyVectorWidth(Operation *op, const AxisInfoAnalysis &axes) {
  auto copy = cast<ttg::AsyncCopyGlobalToLocalOp>(op);
  FailureOr<BufferLayout> shared = bufferLayoutOf(op, copy.getResult().getType());
  if (failed(shared))
    return failure();
  LinearLayout regs = layoutOf(copy.getSrc().getType());
  unsigned bits = elementBits(copy);
  unsigned vec = accessVectorWidth(axes, copy.getSrc(), copy.getMask(),
                                   unsigned(std::max<int32_t>(1, copy.getContiguity())));
  vec = std::min({vec, bufferVectorWidth(regs, *shared, bits), 128 / bits});
  FailureOr<SharedAccessPlan> plan = copyPlan(regs, *shared, std::max(1u, vec));
  if (failed(plan))
    return op->emitError() << "op '" << op->getName()
                           << "' cannot be lowered to LLVM: the buffer does not hold every "
                              "element of the tensor";
  if (plan->vector * bits < 32)
    return op->emitError() << "op '" << op->getName()
                           << "' cannot be lowered to LLVM: cp.async copies 4, 8 or 16 bytes, "
                              "but only "
                           << plan->vector << " element(s) of " << bits
                           << " bits are consecutive in both the pointers and the buffer";
  return plan->vector;
}

void populateAsyncCopyPatterns(TypeConverter &converter, const Context &ctx,
                               RewritePatternSet &patterns) {
  patterns.add<AsyncCopyLowering, AsyncCommitGroupLowering, AsyncWaitLowering>(converter, ctx);
}

} // namespace kiln::lowering

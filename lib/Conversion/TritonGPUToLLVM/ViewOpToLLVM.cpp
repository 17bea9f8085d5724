//===- ViewOpToLLVM.cpp - trans, reshape, join, split, cat, unsplat -------===//
//
// These ops only rename elements; the ttgir stage gives their results
// layouts that keep every element on its thread (Triton inserts a
// convert_layout otherwise). Each source is described as a layout over the
// result's tensor (transposeLayout, reshapeLayout, or the operands stacked
// along an extra top register bit), and the result's registers are taken
// from it by a register-only conversion; anything that would move data
// between threads is a located error.
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Layout/Queries.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
namespace layout = kiln::layout;
using kiln::layout::LinearLayout;

namespace kiln::lowering {
namespace {

/// For each register of `dst`, the register of `src` (a layout of the same
/// tensor) holding its element on the same thread; nullopt if some element
/// would have to come from another thread.
std::optional<SmallVector<unsigned>> registerSources(const LinearLayout &src,
                                                     const LinearLayout &dst) {
  std::optional<LinearLayout> c = dst.invertAndCompose(src);
  if (!c)
    return std::nullopt;
  for (StringRef in : {layout::kLane, layout::kWarp, layout::kBlock})
    for (unsigned i = 0, e = c->getInDimSizeLog2(in); i < e; ++i) {
      auto out = c->apply({{in, int32_t(1) << i}});
      for (auto &[name, v] : out)
        if (v != (name == in ? int32_t(1) << i : 0))
          return std::nullopt;
    }
  SmallVector<unsigned> sources;
  for (int32_t r = 0, e = dst.getInDimSize(layout::kRegister); r < e; ++r) {
    auto out = c->apply({{layout::kRegister, r}});
    for (auto &[name, v] : out)
      if (name != layout::kRegister && v != 0)
        return std::nullopt;
    sources.push_back(unsigned(component(out, layout::kRegister)));
  }
  return sources;
}

/// `ll` over a tensor with an extra last dimension of size 2, selected by a
/// new top register bit: the registers of two operands, one after the other.
LinearLayout stackedLayout(const LinearLayout &ll) {
  unsigned rank = ll.getNumOutDims();
  std::vector<LinearLayout::InDim> ins;
  for (const LinearLayout::InDim &in : ll.getInDims()) {
    LinearLayout::InDim grown{in.name, {}};
    for (const LinearLayout::Basis &b : in.bases) {
      LinearLayout::Basis g = b;
      g.push_back(0);
      grown.bases.push_back(g);
    }
    if (in.name == layout::kRegister) {
      LinearLayout::Basis top(rank + 1, 0);
      top[rank] = 1;
      grown.bases.push_back(top);
    }
    ins.push_back(std::move(grown));
  }
  std::vector<LinearLayout::DimSize> outs(ll.getOutDims().begin(), ll.getOutDims().end());
  outs.push_back({layout::dimName(rank), 2});
  return LinearLayout(std::move(ins), std::move(outs), /*requireSurjective=*/false);
}

LogicalResult notLocal(Operation *op) {
  return op->emitError() << "op '" << op->getName()
                         << "' cannot be lowered to LLVM: its result layout would move elements "
                            "between threads (the ttgir stage must convert_layout first)";
}

LogicalResult replaceWithRegisters(Operation *op, ConversionPatternRewriter &rewriter,
                                   const mlir::TypeConverter &converter, Type resultType,
                                   ArrayRef<Value> regs, const LinearLayout &srcView) {
  Type converted = converter.convertType(resultType);
  if (!converted)
    return failure();
  std::optional<SmallVector<unsigned>> sources = registerSources(srcView, globalLayoutOf(resultType));
  if (!sources)
    return notLocal(op);
  SmallVector<Value> results;
  for (unsigned s : *sources)
    results.push_back(regs[s]);
  rewriter.replaceOp(op, pack(rewriter, op->getLoc(), converted, results));
  return success();
}

struct TransLowering : OpConversionPattern<tt::TransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::TransOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<unsigned> order(op.getOrder().begin(), op.getOrder().end());
    LinearLayout view = layout::transposeLayout(globalLayoutOf(op.getSrc().getType()), order);
    SmallVector<Value> regs = unpack(rewriter, op.getLoc(), adaptor.getSrc());
    return replaceWithRegisters(op, rewriter, *getTypeConverter(), op.getType(), regs, view);
  }
};

struct ReshapeLowering : OpConversionPattern<tt::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ReshapeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    LinearLayout src = globalLayoutOf(op.getSrc().getType()), dst = globalLayoutOf(op.getType());
    LinearLayout view = layout::reshapeLayout(src, op.getType().getShape());
    SmallVector<Value> regs = unpack(rewriter, op.getLoc(), adaptor.getSrc());
    if (registerSources(view, dst) || !op.getAllowReorder())
      return replaceWithRegisters(op, rewriter, *getTypeConverter(), op.getType(), regs, view);
    // allow_reorder: any placement of the elements will do, so registers
    // pass through when neither side holds copies (each element is then
    // in exactly one register of one thread on both sides).
    if (src.getInDimSize(layout::kRegister) != dst.getInDimSize(layout::kRegister) ||
        !src.isInjective() || !dst.isInjective())
      return notLocal(op);
    rewriter.replaceOp(op, pack(rewriter, op.getLoc(), getTypeConverter()->convertType(op.getType()),
                                regs));
    return success();
  }
};

struct JoinLowering : OpConversionPattern<tt::JoinOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::JoinOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> regs = unpack(rewriter, op.getLoc(), adaptor.getLhs());
    llvm::append_range(regs, unpack(rewriter, op.getLoc(), adaptor.getRhs()));
    LinearLayout view = stackedLayout(globalLayoutOf(op.getLhs().getType()));
    return replaceWithRegisters(op, rewriter, *getTypeConverter(), op.getType(), regs, view);
  }
};

struct SplitLowering : OpConversionPattern<tt::SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::SplitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type half = op.getOutLHS().getType();
    Type converted = getTypeConverter()->convertType(half);
    if (!converted)
      return failure();
    // The two results stacked are one layout of the source's tensor.
    LinearLayout stacked = stackedLayout(globalLayoutOf(half));
    std::optional<SmallVector<unsigned>> sources =
        registerSources(globalLayoutOf(op.getSrc().getType()), stacked);
    if (!sources)
      return notLocal(op);
    SmallVector<Value> regs = unpack(rewriter, op.getLoc(), adaptor.getSrc());
    size_t n = sources->size() / 2;
    SmallVector<Value> lhs, rhs;
    for (size_t i = 0; i < sources->size(); ++i)
      (i < n ? lhs : rhs).push_back(regs[(*sources)[i]]);
    rewriter.replaceOp(op, {pack(rewriter, op.getLoc(), converted, lhs),
                            pack(rewriter, op.getLoc(), converted, rhs)});
    return success();
  }
};

struct CatLowering : OpConversionPattern<tt::CatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::CatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    // tt.cat leaves the element order unspecified (as in Triton): the
    // result's registers are the lhs's, then the rhs's.
    Type converted = getTypeConverter()->convertType(op.getType());
    if (!converted)
      return failure();
    SmallVector<Value> regs = unpack(rewriter, op.getLoc(), adaptor.getLhs());
    llvm::append_range(regs, unpack(rewriter, op.getLoc(), adaptor.getRhs()));
    if (regs.size() != cast<LLVM::LLVMStructType>(converted).getBody().size())
      return op.emitError() << "op 'tt.cat' cannot be lowered to LLVM: the result must have as "
                               "many registers per thread as both operands together";
    rewriter.replaceOp(op, pack(rewriter, op.getLoc(), converted, regs));
    return success();
  }
};

struct UnsplatLowering : OpConversionPattern<tt::UnsplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::UnsplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    // One element: every thread holds it, in every register.
    rewriter.replaceOp(op, unpack(rewriter, op.getLoc(), adaptor.getSrc()).front());
    return success();
  }
};

} // namespace

void populateViewPatterns(TypeConverter &converter, const Context &,
                          RewritePatternSet &patterns) {
  patterns.add<TransLowering, ReshapeLowering, JoinLowering, SplitLowering, CatLowering,
               UnsplatLowering>(converter, &converter.getContext());
}

} // namespace kiln::lowering

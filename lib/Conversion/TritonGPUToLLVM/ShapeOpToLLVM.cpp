//===- ShapeOpToLLVM.cpp - broadcast and expand_dims ----------------------===//
//
// Both ops keep every element on the thread that holds it: a register of
// the result takes the source register holding the element the op reads.
// The layouts prove this: the result's lane and warp bases, projected onto
// the source, must be the source's.
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <map>

using namespace mlir;
namespace layout = kiln::layout;
using kiln::layout::LinearLayout;

namespace kiln::lowering {
namespace {

using Projection = llvm::function_ref<LinearLayout::Basis(llvm::ArrayRef<int32_t>)>;

std::optional<SmallVector<unsigned>> mapRegisters(const LinearLayout &src,
                                                  const LinearLayout &dst, Projection project) {
  for (StringRef in : {layout::kLane, layout::kWarp, layout::kBlock}) {
    if (src.getInDimSizeLog2(in) != dst.getInDimSizeLog2(in))
      return std::nullopt;
    for (unsigned i = 0, e = dst.getInDimSizeLog2(in); i < e; ++i)
      if (project(dst.getBasis(in, i)) != LinearLayout::Basis(src.getBasis(in, i)))
        return std::nullopt;
  }
  auto registerPart = [](const LinearLayout &ll, int32_t reg) {
    SmallVector<int32_t> in(ll.getNumInDims(), 0);
    in[ll.getInDimIndex(layout::kRegister)] = reg;
    return ll.apply(in);
  };
  std::map<SmallVector<int32_t>, unsigned> holder;
  for (int32_t reg = src.getInDimSize(layout::kRegister) - 1; reg >= 0; --reg)
    holder[registerPart(src, reg)] = reg;
  SmallVector<unsigned> map;
  for (int32_t reg = 0, e = dst.getInDimSize(layout::kRegister); reg < e; ++reg) {
    LinearLayout::Basis key = project(registerPart(dst, reg));
    auto it = holder.find(SmallVector<int32_t>(key.begin(), key.end()));
    if (it == holder.end())
      return std::nullopt;
    map.push_back(it->second);
  }
  return map;
}

LogicalResult remap(Operation *op, Value src, Value adaptedSrc, Projection project,
                    const mlir::TypeConverter &converter, ConversionPatternRewriter &rewriter) {
  Type resultType = op->getResult(0).getType();
  Type converted = converter.convertType(resultType);
  if (!converted)
    return failure();
  std::optional<SmallVector<unsigned>> map =
      mapRegisters(globalLayoutOf(src.getType()), globalLayoutOf(resultType), project);
  if (!map)
    return op->emitError() << "op '" << op->getName()
                           << "' between these layouts cannot be lowered to LLVM yet";
  SmallVector<Value> regs = unpack(rewriter, op->getLoc(), adaptedSrc), results;
  for (unsigned reg : *map)
    results.push_back(regs[reg]);
  rewriter.replaceOp(op, pack(rewriter, op->getLoc(), converted, results));
  return success();
}

struct BroadcastLowering : OpConversionPattern<tt::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::BroadcastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int64_t> srcShape = op.getSrc().getType().getShape();
    // Broadcast dimensions read coordinate 0 of the source.
    auto project = [&](ArrayRef<int32_t> coords) {
      LinearLayout::Basis c(coords.begin(), coords.end());
      for (auto [d, size] : llvm::enumerate(srcShape))
        if (size == 1)
          c[d] = 0;
      return c;
    };
    return remap(op, op.getSrc(), adaptor.getSrc(), project, *getTypeConverter(), rewriter);
  }
};

struct ExpandDimsLowering : OpConversionPattern<tt::ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ExpandDimsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    unsigned axis = op.getAxis();
    auto project = [&](ArrayRef<int32_t> coords) {
      LinearLayout::Basis c(coords.begin(), coords.end());
      c.erase(c.begin() + axis);
      return c;
    };
    return remap(op, op.getSrc(), adaptor.getSrc(), project, *getTypeConverter(), rewriter);
  }
};

} // namespace

void populateShapePatterns(TypeConverter &converter, const Context &,
                           RewritePatternSet &patterns) {
  patterns.add<BroadcastLowering, ExpandDimsLowering>(converter, &converter.getContext());
}

} // namespace kiln::lowering

//===- OptimizeDescriptorEncoding.cpp - nvmma_shared for descriptors ------===//
//
// Every descriptor value is retyped in place (block arguments and op
// results alike), so the ops that pass descriptors on (scf.for, scf.if)
// stay consistent; tt.func signatures are rebuilt from their entry blocks.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/NVIDIA/Transforms/Passes.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"

namespace kiln::nvidia {
#define GEN_PASS_DEF_OPTIMIZEDESCRIPTORENCODING
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"
} // namespace kiln::nvidia

using namespace mlir;
using namespace kiln;

namespace {

/// The descriptor type with its default TMA encoding, or null when `type`
/// is no descriptor or already has an encoding.
Type withEncoding(Type type) {
  auto desc = dyn_cast<tt::TensorDescType>(type);
  if (!desc || desc.getBlockType().getEncoding())
    return {};
  RankedTensorType block = desc.getBlockType();
  if (!block.getElementType().isIntOrFloat())
    return {};
  Attribute enc = ttng::defaultTMAEncoding(desc.getSignlessBlockType());
  return tt::TensorDescType::get(type.getContext(),
                                 RankedTensorType::get(block.getShape(), block.getElementType(),
                                                       enc));
}

void retype(Value v) {
  if (Type t = withEncoding(v.getType()))
    v.setType(t);
}

struct OptimizeDescriptorEncoding
    : kiln::nvidia::impl::OptimizeDescriptorEncodingBase<OptimizeDescriptorEncoding> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            retype(arg);
      for (Value result : op->getResults())
        retype(result);
    });
    getOperation().walk([](tt::FuncOp func) {
      if (func.isExternal())
        return;
      FunctionType type = func.getFunctionType();
      func.setFunctionType(FunctionType::get(
          func.getContext(), func.getBody().front().getArgumentTypes(), type.getResults()));
    });
  }
};

} // namespace

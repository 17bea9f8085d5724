//===- TargetInfo.cpp - NVIDIA's side of the LLVM lowering ----------------===//
//
// The only file of the lowering that includes the NVVM dialect.
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace kiln {

TargetInfo::~TargetInfo() = default;

namespace {

class NVIDIATargetInfo final : public TargetInfo {
public:
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<NVVM::NVVMDialect>();
  }

  Value threadId(OpBuilder &b, Location loc) const override {
    return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  }

  Value programId(OpBuilder &b, Location loc, unsigned axis) const override {
    Type i32 = b.getI32Type();
    switch (axis) {
    case 0:
      return NVVM::BlockIdXOp::create(b, loc, i32);
    case 1:
      return NVVM::BlockIdYOp::create(b, loc, i32);
    default:
      return NVVM::BlockIdZOp::create(b, loc, i32);
    }
  }

  Value numPrograms(OpBuilder &b, Location loc, unsigned axis) const override {
    Type i32 = b.getI32Type();
    switch (axis) {
    case 0:
      return NVVM::GridDimXOp::create(b, loc, i32);
    case 1:
      return NVVM::GridDimYOp::create(b, loc, i32);
    default:
      return NVVM::GridDimZOp::create(b, loc, i32);
    }
  }

  // As Triton 3.6: the block size is required (reqntid), not only bounded,
  // and a register cap only when the module asks for one.
  void markKernel(Operation *func, unsigned numThreads,
                  std::optional<unsigned> maxRegisters) const override {
    Builder b(func->getContext());
    func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
    func->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                  b.getDenseI32ArrayAttr({int32_t(numThreads)}));
    if (maxRegisters)
      func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    b.getI32IntegerAttr(int32_t(*maxRegisters)));
  }
};

} // namespace

std::unique_ptr<TargetInfo> createNVIDIATargetInfo() {
  return std::make_unique<NVIDIATargetInfo>();
}

} // namespace kiln

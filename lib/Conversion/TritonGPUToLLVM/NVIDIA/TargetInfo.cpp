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

namespace {

class NVIDIATargetInfo final : public TargetInfo {
public:
  explicit NVIDIATargetInfo(unsigned cc) : cc(cc) {}

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

  // The opt-in per-block maxima of the CUDA programming guide's table of
  // compute capabilities.
  int64_t sharedMemoryLimit() const override {
    switch (cc) {
    case 80:
    case 87:
      return 163 * 1024;
    case 86:
    case 89:
    case 120:
    case 121:
      return 99 * 1024;
    case 90:
    case 100:
    case 103:
      return 227 * 1024;
    default:
      return cc >= 70 ? 96 * 1024 : 48 * 1024;
    }
  }

  void barrier(OpBuilder &b, Location loc) const override { NVVM::Barrier0Op::create(b, loc); }

  Value shuffle(OpBuilder &b, Location loc, Value i32, Shuffle kind,
                Value laneOrMask) const override {
    Type t = b.getI32Type();
    auto constant = [&](int32_t v) {
      return LLVM::ConstantOp::create(b, loc, t, b.getI32IntegerAttr(v));
    };
    // The c operand: segment mask 0 (one 32-lane segment) and the clamp,
    // the highest lane for bfly/idx and 0 for up.
    NVVM::ShflKind nvKind = kind == Shuffle::Xor ? NVVM::ShflKind::bfly
                            : kind == Shuffle::Up ? NVVM::ShflKind::up
                                                  : NVVM::ShflKind::idx;
    Value clamp = constant(kind == Shuffle::Up ? 0 : 0x1f);
    return NVVM::ShflOp::create(b, loc, t, constant(-1), i32, laneOrMask, clamp, nvKind,
                                UnitAttr());
  }

private:
  unsigned cc;
};

} // namespace

std::unique_ptr<TargetInfo> createNVIDIATargetInfo(unsigned computeCapability) {
  return std::make_unique<NVIDIATargetInfo>(computeCapability);
}

} // namespace kiln

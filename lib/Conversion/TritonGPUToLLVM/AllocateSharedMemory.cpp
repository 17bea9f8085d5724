//===- AllocateSharedMemory.cpp - offsets of shared-memory buffers --------===//
#include "kiln/Analysis/Allocation.h"
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h"
#include "kiln/Conversion/TritonGPUToLLVM/LoweringExtension.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace kiln {
#define GEN_PASS_DEF_ALLOCATESHAREDMEMORY
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

struct AllocateSharedMemory : kiln::impl::AllocateSharedMemoryBase<AllocateSharedMemory> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto targetName = module->getAttrOfType<StringAttr>("ttg.target");
    auto numWarps = module->getAttrOfType<IntegerAttr>("ttg.num-warps");
    if (!targetName || !numWarps || numWarps.getInt() < 1) {
      module.emitError() << "shared-memory allocation needs the module's ttg.target and "
                            "ttg.num-warps (run the ttgir stage first)";
      return signalPassFailure();
    }
    llvm::Expected<std::unique_ptr<TargetInfo>> target = createTargetInfo(targetName.getValue());
    if (!target) {
      module.emitError() << llvm::toString(target.takeError());
      return signalPassFailure();
    }
    ScratchContext ctx{ttg::lookupThreadsPerWarp(module), unsigned(numWarps.getInt())};
    Builder b(module.getContext());
    int64_t moduleBytes = 0;
    bool ok = true;
    for (Operation *op : functionsCalleesFirst(module)) {
      auto func = cast<tt::FuncOp>(op);
      SharedAllocation allocation = allocateSharedMemory(func, ctx);
      if (allocation.buffers.empty())
        continue;
      // A device function's buffers are placed from the part of shared
      // memory its call passes; the call's own allocation holds them.
      if (!func.isPublic())
        func->setAttr(kFunctionSharedBytesAttr, b.getI64IntegerAttr(allocation.totalBytes));
      int64_t limit = (*target)->sharedMemoryLimit();
      if (allocation.totalBytes > limit) {
        InFlightDiagnostic diag = func.emitError()
                                  << "kernel '" << func.getName() << "' needs "
                                  << allocation.totalBytes << " bytes of shared memory; "
                                  << targetName.getValue() << " allows " << limit;
        for (const SharedBuffer &buffer : allocation.buffers)
          diag.attachNote(buffer.owner->getLoc())
              << buffer.bytes << " bytes at offset " << buffer.offset << " for '"
              << buffer.owner->getName() << "'";
        ok = false;
        continue;
      }
      for (const SharedBuffer &buffer : allocation.buffers) {
        IntegerAttr offset = b.getI32IntegerAttr(int32_t(buffer.offset));
        if (buffer.owner == func) // the warp-specialisation state
          func.walk([&](ttg::WarpSpecializeOp ws) { ws->setAttr(kWarpStateOffsetAttr, offset); });
        else
          buffer.owner->setAttr(kAllocationOffsetAttr, offset);
      }
      moduleBytes = std::max(moduleBytes, allocation.totalBytes);
    }
    if (!ok)
      return signalPassFailure();
    module->setAttr("ttg.shared", b.getI32IntegerAttr(int32_t(moduleBytes)));
  }
};

} // namespace

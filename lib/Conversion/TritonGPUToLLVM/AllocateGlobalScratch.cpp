//===- AllocateGlobalScratch.cpp - offsets in a program's global scratch --===//
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace kiln {
#define GEN_PASS_DEF_ALLOCATEGLOBALSCRATCH
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

struct AllocateGlobalScratch : kiln::impl::AllocateGlobalScratchBase<AllocateGlobalScratch> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    int64_t moduleBytes = 0, moduleAlign = 1;
    bool ok = true;
    for (auto func : module.getOps<tt::FuncOp>()) {
      // Every op has one buffer for the whole kernel: one in a loop is
      // reused by each iteration, as in Triton.
      int64_t bytes = 0, align = 1;
      func.walk([&](ttg::GlobalScratchAllocOp alloc) {
        // The offsets are relative to the kernel's slice; a callee's
        // would overlap its caller's (the ttir stage inlines calls).
        if (!func.isPublic()) {
          alloc.emitError() << "global scratch memory is allocated only in kernels so far, and '"
                            << func.getName() << "' is not one (inline it)";
          ok = false;
          return;
        }
        int64_t a = alloc.getAlignmentAttr().getInt();
        int64_t offset = int64_t(llvm::alignTo(uint64_t(bytes), uint64_t(a)));
        bytes = offset + alloc.getNbytesAttr().getInt();
        if (bytes > std::numeric_limits<int32_t>::max()) {
          alloc.emitError() << "kernel '" << func.getName()
                            << "' needs more than 2^31 bytes of global scratch memory per program";
          ok = false;
          return;
        }
        align = std::max(align, a);
        alloc->setAttr("ttg.global_scratch_memory_offset", b.getI32IntegerAttr(int32_t(offset)));
      });
      moduleBytes = std::max(moduleBytes, int64_t(llvm::alignTo(uint64_t(bytes), uint64_t(align))));
      moduleAlign = std::max(moduleAlign, align);
    }
    if (!ok)
      return signalPassFailure();
    module->setAttr("ttg.global_scratch_memory_size", b.getI32IntegerAttr(int32_t(moduleBytes)));
    module->setAttr("ttg.global_scratch_memory_alignment",
                    b.getI32IntegerAttr(int32_t(moduleAlign)));
  }
};

} // namespace

//===- AllocateGlobalScratch.cpp - offsets in a program's global scratch --===//
//
// Each program has one slice of the launcher's global scratch buffer. A
// kernel's `ttg.global_scratch_alloc`s and calls get offsets in it; a
// device function's are offsets from the part its call passes, which the
// call holds for the callee's whole need (as Triton places them, so a
// descriptor made in a `noinline` function stays valid after it returns).
//
//===----------------------------------------------------------------------===//
#include "kiln/Analysis/Allocation.h"
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace kiln {
#define GEN_PASS_DEF_ALLOCATEGLOBALSCRATCH
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

constexpr llvm::StringLiteral kOffsetAttr = "ttg.global_scratch_memory_offset";

struct Need {
  int64_t bytes = 0, align = 1;
};

struct AllocateGlobalScratch : kiln::impl::AllocateGlobalScratchBase<AllocateGlobalScratch> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    llvm::DenseMap<Operation *, Need> needs;
    SmallVector<tt::CallOp> callsInCycles;
    Need kernels;
    bool ok = true;
    for (Operation *op : functionsCalleesFirst(module)) {
      auto func = cast<tt::FuncOp>(op);
      // Every op and call has one buffer for the whole function: one in a
      // loop is reused by each iteration, as in Triton.
      Need need;
      auto place = [&](Operation *owner, Need what) {
        int64_t offset = int64_t(llvm::alignTo(uint64_t(need.bytes), uint64_t(what.align)));
        need.bytes = offset + what.bytes;
        need.align = std::max(need.align, what.align);
        if (need.bytes > std::numeric_limits<int32_t>::max()) {
          owner->emitError() << "function '" << func.getName()
                             << "' needs more than 2^31 bytes of global scratch memory per program";
          ok = false;
          return;
        }
        owner->setAttr(kOffsetAttr, b.getI32IntegerAttr(int32_t(offset)));
      };
      func.walk([&](Operation *inner) {
        if (auto alloc = dyn_cast<ttg::GlobalScratchAllocOp>(inner)) {
          place(alloc, {alloc.getNbytesAttr().getInt(), alloc.getAlignmentAttr().getInt()});
        } else if (auto call = dyn_cast<tt::CallOp>(inner)) {
          Operation *callee = SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr());
          auto it = needs.find(callee);
          if (it == needs.end())
            callsInCycles.push_back(call); // not sized yet: the callee calls back
          else if (it->second.bytes > 0)
            place(call, it->second);
        }
      });
      need.bytes = int64_t(llvm::alignTo(uint64_t(need.bytes), uint64_t(need.align)));
      needs[func] = need;
      if (func.isPublic()) {
        kernels.bytes = std::max(kernels.bytes, need.bytes);
        kernels.align = std::max(kernels.align, need.align);
      }
    }
    for (tt::CallOp call : callsInCycles)
      if (needs.lookup(SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr())).bytes) {
        call.emitError() << "'" << call.getCallee()
                         << "' needs global scratch memory and is called recursively";
        ok = false;
      }
    if (!ok)
      return signalPassFailure();
    module->setAttr("ttg.global_scratch_memory_size", b.getI32IntegerAttr(int32_t(kernels.bytes)));
    module->setAttr("ttg.global_scratch_memory_alignment",
                    b.getI32IntegerAttr(int32_t(kernels.align)));
  }
};

} // namespace

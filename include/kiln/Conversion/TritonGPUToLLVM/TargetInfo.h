//===- TargetInfo.h - what the LLVM lowering asks of a GPU ------*- C++ -*-===//
//
// The lowering of TTGIR to the LLVM dialect is backend-neutral; the few
// things that differ between GPUs (special registers, kernel attributes)
// come from a TargetInfo. Implementations live in the backend's folder and
// are the only code that includes that backend's intrinsics dialect.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CONVERSION_TRITONGPUTOLLVM_TARGETINFO_H
#define KILN_CONVERSION_TRITONGPUTOLLVM_TARGETINFO_H

#include "mlir/IR/Builders.h"

#include <memory>
#include <optional>

namespace mlir {
class DialectRegistry;
}

namespace kiln {

class TargetInfo {
public:
  virtual ~TargetInfo();
  /// The dialect the target's intrinsics come from must be loaded.
  virtual void getDependentDialects(mlir::DialectRegistry &registry) const = 0;
  /// The thread's index in its CTA (x only: kiln launches 1-D blocks), i32.
  virtual mlir::Value threadId(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// The program (CTA) index and the grid size along axis 0..2, i32.
  virtual mlir::Value programId(mlir::OpBuilder &b, mlir::Location loc, unsigned axis) const = 0;
  virtual mlir::Value numPrograms(mlir::OpBuilder &b, mlir::Location loc, unsigned axis) const = 0;
  /// Marks an llvm.func as a kernel launched with `numThreads` threads per
  /// CTA; `maxRegisters` is ttg.maxnreg when the module sets it.
  virtual void markKernel(mlir::Operation *llvmFunc, unsigned numThreads,
                          std::optional<unsigned> maxRegisters) const = 0;
};

/// NVIDIA GPUs through the NVVM dialect.
std::unique_ptr<TargetInfo> createNVIDIATargetInfo();

} // namespace kiln

#endif

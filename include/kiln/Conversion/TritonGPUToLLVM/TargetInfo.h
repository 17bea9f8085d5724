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
#include "llvm/Support/Error.h"

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

  /// The most shared memory one CTA may use, in bytes.
  virtual int64_t sharedMemoryLimit() const = 0;
  /// A barrier for all threads of the CTA that also orders their shared
  /// memory accesses.
  virtual void barrier(mlir::OpBuilder &b, mlir::Location loc) const = 0;

  /// Warp shuffles of an i32 (every lane of the warp takes part):
  /// the value of lane `lane ^ mask`, of lane `lane - delta` (a lane's own
  /// value when that is below 0), and of lane `srcLane`.
  enum class Shuffle { Xor, Up, Index };
  virtual mlir::Value shuffle(mlir::OpBuilder &b, mlir::Location loc, mlir::Value i32,
                              Shuffle kind, mlir::Value laneOrMask) const = 0;
};

/// NVIDIA GPUs of compute capability `cc` (90 for sm_90) through NVVM.
std::unique_ptr<TargetInfo> createNVIDIATargetInfo(unsigned computeCapability);

/// The target a module's `ttg.target` names (`cuda:<cc>`), or an error
/// saying what is supported.
llvm::Expected<std::unique_ptr<TargetInfo>> createTargetInfo(llvm::StringRef target);

} // namespace kiln

#endif

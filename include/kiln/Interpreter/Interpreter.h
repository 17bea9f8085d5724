//===- Interpreter.h - reference execution of TTIR on the CPU ---*- C++ -*-===//
//
// Runs a tt.func for every program of a grid, one program after another, on
// host buffers held by a Memory. Each op works on whole tensors (one typed
// loop per op, not a dispatch per element). Accesses through pointers are
// checked: an out-of-bounds or misaligned access, a read of a poisoned
// output element, a failed tt.assert, or an op without CPU semantics stops
// the run with an error that names the op's source location, the program
// and the element.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_INTERPRETER_INTERPRETER_H
#define KILN_INTERPRETER_INTERPRETER_H

#include "kiln/RunSpec/Memory.h"
#include "kiln/RunSpec/Value.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <memory>
#include <string>

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace kiln::interp {


struct RunOptions {
  /// Programs on each axis; they run with x fastest, then y, then z.
  std::array<int64_t, 3> grid{1, 1, 1};
  /// Where tt.print writes; llvm::outs() when null.
  llvm::raw_ostream *printStream = nullptr;
  /// Reading an unwritten element of a poisoned buffer stops the run; when
  /// false it is only counted (see Interpreter::poisonReads()).
  bool poisonReadIsError = true;
  /// Stops the run with an error after this many steps (ops executed,
  /// terminators included, so every loop iteration and program counts);
  /// 0 for no limit.
  uint64_t maxSteps = 0;
  /// Stops the run with an error after this many seconds (checked between
  /// ops); 0 for no limit.
  double timeLimitSeconds = 0;
};

/// The dialects a TTIR file may use (tt, arith, math, scf, cf, ub, func, gpu).
void registerInterpreterDialects(mlir::DialectRegistry &registry);

/// Parses and verifies a TTIR file.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>> parseKernelFile(llvm::StringRef path,
                                                                  mlir::MLIRContext &ctx);

class Interpreter {
public:
  explicit Interpreter(mlir::ModuleOp module);
  ~Interpreter();

  /// Runs the kernel `kernel` (a tt.func of the module) for every program
  /// of `opts.grid`. `args` are the tt.func's arguments in order: scalars
  /// as rank-0 tensors, pointers as Ptr scalars of Memory addresses,
  /// descriptors as TensorDesc.
  llvm::Error run(llvm::StringRef kernel, llvm::ArrayRef<RtValue> args, Memory &memory,
                  const RunOptions &opts);

  /// Reads of unwritten poisoned elements seen (when they are not errors).
  int64_t poisonReads() const { return poisonReads_; }

private:
  mlir::ModuleOp module_;
  int64_t poisonReads_ = 0;
};

/// "file:line:col" for a location (the first file position inside name,
/// call-site and fused locations), or "<unknown location>".
std::string formatLocation(mlir::Location loc);

} // namespace kiln::interp

#endif

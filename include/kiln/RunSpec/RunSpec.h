//===- RunSpec.h - run specs: launch a kernel on files, check outputs -*- C++ -*-===//
//
// A run spec (manifest.json; format in docs/interpreter.md, the corpus's
// format plus a few conveniences) says which tt.func to launch, on which
// grid, with which arguments, and what each output must hold. This API
// loads a spec, builds the buffers and kernel arguments (checked against the
// tt.func signature), and compares the outputs after a run.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNSPEC_RUNSPEC_H
#define KILN_RUNSPEC_RUNSPEC_H

#include "kiln/RunSpec/Memory.h"
#include "kiln/RunSpec/Value.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>

#include <optional>
#include <string>
#include <vector>

// This header and its library need no MLIR (the CUDA runtime's tools use
// them without it); prepareLaunch alone, in PrepareLaunch.cpp, reads MLIR.
namespace mlir {
class ModuleOp;
} // namespace mlir

namespace kiln::interp {

enum class ArgKind { Buffer, Scalar, TensorDescriptor };
enum class Role { Input, Output, InOut };

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

struct ArgSpec {
  std::string name;
  ArgKind kind = ArgKind::Buffer;
  ElemKind dtype = ElemKind::F32;
  bool isUnsigned = false; ///< dtype was spelt u8..u64
  Role role = Role::Input;
  Shape shape;             ///< buffer / descriptor tensor shape
  Shape block;             ///< descriptor block shape (may be empty)
  // Initial contents of inputs: a file, inline values, or one fill value
  // (zeros when none is given).
  std::string file;
  std::optional<std::vector<double>> data;
  std::optional<double> fill;
  // Expected contents: a file or inline values.
  std::string expect;
  std::optional<std::vector<double>> expectData;
  Tolerance tolerance;
  // Scalars.
  int64_t intValue = 0;
  double floatValue = 0;

  bool hasExpectation() const { return !expect.empty() || expectData.has_value(); }
};

struct RunSpec {
  std::string path; ///< the spec file
  std::string dir;  ///< relative file names are resolved against it
  std::string name;
  std::string kernel; ///< empty: the module's only public tt.func
  std::string ttir;   ///< resolved path of the kernel file
  std::array<int64_t, 3> grid{1, 1, 1};
  int numWarps = 4;  ///< for compiling the kernel (the corpus records Triton's)
  int numStages = 3;
  int numCtas = 1; ///< CTAs per program (a cluster), as Triton's num_ctas
  std::vector<ArgSpec> args;
};

/// Reads CASE_DIR/manifest.json, or the given .json file.
llvm::Expected<RunSpec> loadRunSpec(llvm::StringRef caseDirOrFile);
/// Parses spec text; relative paths resolve against `dir`.
llvm::Expected<RunSpec> parseRunSpec(llvm::StringRef json, llvm::StringRef dir);
/// `--set name=value`: replaces a scalar argument's value.
llvm::Error setScalar(RunSpec &spec, llvm::StringRef name, llvm::StringRef value);
/// `--grid X[,Y[,Z]]`.
llvm::Error setGrid(RunSpec &spec, llvm::StringRef text);
/// The command line's overrides: a --grid (when not empty), then each --set
/// NAME=VALUE.
llvm::Error applyOverrides(RunSpec &spec, llvm::StringRef grid,
                           llvm::ArrayRef<std::string> scalarSets);

/// Buffers and kernel arguments for one launch.
struct Launch {
  Memory memory;
  std::string kernel;               ///< the tt.func to run
  std::vector<RtValue> args;        ///< one per tt.func argument
  std::vector<int> bufferOfArg;     ///< per spec argument: buffer id or -1
};

/// The default cap on the host memory of a launch's buffers (see
/// prepareLaunch): 4 GiB.
inline constexpr uint64_t kDefaultMemoryLimit = uint64_t(4) << 30;

/// Checks the spec's arguments against the tt.func's signature, then
/// allocates every buffer (outputs poisoned), reads inputs, and builds the
/// tt.func arguments. Nothing is allocated before the whole spec has been
/// checked, and not at all when the buffers would need more than
/// `memoryLimit` bytes of host memory: a buffer's bytes, as many again for
/// an output's written-tracking, and two more copies when it has an
/// expectation (for the comparison).
llvm::Expected<Launch> prepareLaunch(const RunSpec &spec, mlir::ModuleOp module,
                                     uint64_t memoryLimit = kDefaultMemoryLimit);
/// Fails when the spec's buffers need more than `memoryLimit` bytes of host
/// memory (counted as prepareLaunch says).
llvm::Error checkHostMemory(const RunSpec &spec, uint64_t memoryLimit);
/// The buffers alone, one per non-scalar argument (outputs poisoned, inputs
/// read), for an executor that packs the arguments itself; `args` is empty.
llvm::Expected<Launch> prepareBuffers(const RunSpec &spec,
                                      uint64_t memoryLimit = kDefaultMemoryLimit);

struct OutputCheck {
  std::string name;
  bool pass = true;
  int64_t elements = 0;
  int64_t mismatches = 0;
  int64_t unwritten = 0; ///< mismatches that were never written
  double maxAbsErr = 0;
  double maxRelErr = 0;
  int64_t firstMismatch = -1;
  std::string firstIndex, got, want; ///< of the first mismatch
  Tolerance tolerance;
  ElemKind dtype = ElemKind::F32;
};

/// Compares every argument that has an expectation.
llvm::Expected<std::vector<OutputCheck>> checkOutputs(const RunSpec &spec, const Launch &launch);
/// "z: PASS max_abs_err=0 max_rel_err=0 first_mismatch=none (...)".
std::string formatCheck(const OutputCheck &check);
/// Prints one line per check and the case's verdict ("NAME: PASS (2
/// outputs)"); returns how many outputs failed.
unsigned printChecks(const RunSpec &spec, llvm::ArrayRef<OutputCheck> checks,
                     llvm::raw_ostream &os);
/// Writes each output and inout buffer to DIR/<name>.out.bin.
llvm::Error writeOutputs(const RunSpec &spec, const Launch &launch, llvm::StringRef dir);

} // namespace kiln::interp

#endif

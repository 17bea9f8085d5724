//===- Options.h - compile targets and options ------------------*- C++ -*-===//
#ifndef KILN_BASE_OPTIONS_H
#define KILN_BASE_OPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kiln {

/// A compile target, named as Triton names it: `cuda:<capability>` (e.g.
/// `cuda:90`) or `hip:<arch>` (e.g. `hip:gfx942`).
struct Target {
  std::string kind; ///< "cuda" or "hip"
  std::string arch; ///< "90", "gfx942", ...

  static llvm::Expected<Target> parse(llvm::StringRef text);
  std::string str() const { return kind + ":" + arch; }
  /// The backend that compiles for this target: "nvidia" or "amd".
  llvm::StringRef backend() const;
  /// The CUDA compute capability (e.g. 90), or 0 for a non-CUDA target.
  int capability() const;
};

/// Everything besides the IR and the pipeline that decides what a compile
/// produces. Plugin passes receive it from their factories.
struct CompileOptions {
  Target target;
  int numWarps = 4;
  int numStages = 3;
  int numCtas = 1;
  int warpSize = 32;

  // Code-generation options with Triton's names and defaults (CUDAOptions).
  /// Contract a*b+c into fma anywhere (LLVM's fp-contract, fmuladd, ptxas
  /// --fmad). Off: every multiply and add rounds on its own.
  bool enableFpFusion = true;
  /// libdevice flushes f32 denormals to zero (the nvvm-reflect-ftz flag).
  bool enableReflectFtz = true;
  /// At most this many registers per thread (PTX `.maxnreg`).
  std::optional<int> maxnreg;
  /// LLVM's NVPTX scheduler favours register pressure (-nvptx-sched4reg).
  bool sched4reg = false;
  /// Triton's `debug` (TRITON_DEBUG=1): checks in the kernel. kiln's
  /// mbarrier waits give up after kMBarrierWaitLimitNs with a message
  /// naming the wait instead of hanging the GPU (docs/nvidia-codegen.md).
  bool debug = false;
  /// The kernel asks for at least this much shared memory (bytes), to bound
  /// how many programs share an SM.
  std::optional<int64_t> minSharedMem;
  /// The GPU the PTX names and ptxas assembles for, when newer than
  /// `target` (Triton's `arch` option generates code for an older GPU and
  /// assembles it for the one it runs on). Unset: `target`.
  std::optional<Target> ptxTarget;
  /// Extra ptxas flags, after kiln's own (Triton's `ptx_options` and the
  /// flags a Triton release adds).
  std::vector<std::string> ptxasOptions;
  /// LLVM options for the code generator ("-name" or "-name=value"), set
  /// for this compile only (plugins add them; `CodegenFlags`).
  std::vector<std::string> llvmOptions;
  /// Plugin options, "<plugin>.<key>" -> value: every option of every
  /// loaded plugin, its default unless `--plugin-option` set it. Passes read
  /// them from the options their factory gets; lowering extensions from
  /// the lowering's context.
  std::map<std::string, std::string> pluginOptions;

  /// The value of plugin option `key` ("<plugin>.<key>"), or `fallback`.
  llvm::StringRef pluginOption(llvm::StringRef key, llvm::StringRef fallback = "") const;

  /// The target the PTX and cubin are for: `ptxTarget`, else `target`.
  const Target &assemblyTarget() const { return ptxTarget ? *ptxTarget : target; }

  /// Triton's defaults for `target`: the warp size is 64 on CDNA (gfx9*)
  /// GPUs, 32 everywhere else.
  static CompileOptions forTarget(const Target &target);

  /// A canonical one-line form, used in the cache key and in listings. The
  /// code-generation options appear only when they differ from the default.
  std::string str() const;
};

} // namespace kiln

#endif

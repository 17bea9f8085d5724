//===- kiln-run-cuda.cpp - run a cubin on the GPU from a run spec ---------===//
//
// `kiln run CASE --target cuda:N --cubin FILE` without MLIR: what a
// KILN_RUNTIME_ONLY build makes for a GPU machine that has no LLVM. kiln
// run's GPU options (but --memory-limit, fixed at 4G), checks and output
// lines.
//
//===----------------------------------------------------------------------===//
#include "kiln/RunSpec/RunSpec.h"
#include "kiln/Backend/NVIDIA/Runtime/CudaRun.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace kiln;

namespace {

cl::OptionCategory category("kiln-run-cuda options");
cl::opt<std::string> caseArg(cl::Positional, cl::desc("<case folder | run-spec.json>"),
                             cl::cat(category));
cl::opt<std::string> target("target", cl::desc("The GPU's target (cuda:90)"),
                            cl::init("cuda:90"), cl::cat(category));
cl::opt<std::string> cubin("cubin", cl::desc("The kernel image (cubin or PTX)"),
                           cl::value_desc("FILE"), cl::cat(category));
cl::opt<std::string> metadata("metadata",
                              cl::desc("Its metadata JSON (default: the cubin's name with .json)"),
                              cl::value_desc("FILE"), cl::cat(category));
cl::opt<std::string> outputDir("output-dir",
                               cl::desc("Write each output/inout buffer to DIR/<name>.out.bin"),
                               cl::value_desc("DIR"), cl::cat(category));
cl::opt<std::string> gridOverride("grid", cl::desc("Override the grid: X[,Y[,Z]]"),
                                  cl::value_desc("X,Y,Z"), cl::cat(category));
cl::list<std::string> scalarOverrides("set", cl::desc("Override a scalar argument (repeatable)"),
                                      cl::value_desc("NAME=VALUE"), cl::cat(category));
cl::opt<unsigned> repeat("repeat", cl::desc("Time N more launches and report their median"),
                         cl::value_desc("N"), cl::init(0), cl::cat(category));

int fail(Error error) {
  WithColor::error(errs(), "kiln-run-cuda") << toString(std::move(error)) << "\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "kiln-run-cuda: run a cubin on the GPU\n");
  if (caseArg.empty())
    return fail(createStringError("kiln-run-cuda needs a case folder or a run-spec file"));
  if (cubin.empty())
    return fail(createStringError("kiln-run-cuda needs --cubin FILE (it cannot compile; "
                                  "kiln run --target cuda:N compiles)"));
  Expected<int> capability = runtime::parseCudaTarget(target);
  if (!capability)
    return fail(capability.takeError());
  Expected<interp::RunSpec> spec = interp::loadRunSpec(caseArg);
  if (!spec)
    return fail(spec.takeError());
  if (Error e = interp::applyOverrides(*spec, gridOverride, scalarOverrides))
    return fail(std::move(e));
  Expected<runtime::CompiledKernel> kernel = runtime::loadCompiledKernel(cubin, metadata);
  if (!kernel)
    return fail(kernel.takeError());
  runtime::CudaRunOptions options;
  options.capability = *capability;
  options.repeat = repeat;
  Expected<unsigned> failed = runtime::runCaseOnCuda(*spec, *kernel, options, outputDir, outs());
  if (!failed)
    return fail(failed.takeError());
  return *failed ? 1 : 0;
}

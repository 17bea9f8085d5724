//===- PipelineCommand.cpp - kiln pipeline --------------------------------===//
//
// Prints the effective pipeline for a target: every stage, every pass entry,
// and who put it there (core or a plugin, and by which edit).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "kiln/Plugin/PluginManager.h"

using namespace llvm;

namespace kiln::driver {
namespace {

cl::SubCommand command("pipeline",
                       "Print every stage and pass entry for a target, with provenance");
cl::opt<std::string> target("target", cl::desc("Target, e.g. cuda:90 or hip:gfx942"),
                            cl::value_desc("target"), cl::Required, cl::sub(command),
                            cl::cat(category()));
cl::opt<int> numWarps("num-warps", cl::desc("Warps per program (default 4)"), cl::init(4),
                      cl::sub(command), cl::cat(category()));
cl::opt<int> numStages("num-stages", cl::desc("Software-pipelining stages (default 3)"),
                       cl::init(3), cl::sub(command), cl::cat(category()));
cl::list<std::string> plugins("plugin",
                              cl::desc("Load a plugin library (after TRITON_PLUGIN_PATHS)"),
                              cl::value_desc("path"), cl::sub(command), cl::cat(category()));

int run() {
  if (Error error = loadPlugins(plugins))
    return reportError(std::move(error));
  Expected<CompileOptions> options = makeCompileOptions(target, numWarps, numStages);
  if (!options)
    return reportError(options.takeError());
  Expected<Pipeline> pipeline = buildPipeline(*options, PluginManager::get().edits());
  if (!pipeline)
    return reportError(pipeline.takeError());
  pipeline->print(outs());
  return 0;
}

CommandRegistration registration(command, run);

} // namespace
} // namespace kiln::driver

//===- PipelineCommand.cpp - kiln pipeline --------------------------------===//
//
// Prints the effective pipeline for a target: every stage, every pass entry,
// and who put it there (core or a plugin, and by which edit). With
// --identity it prints instead the part of kiln's compile-cache key that does
// not depend on the kernel, for callers that keep a cache of their own (the
// Python bridge behind Triton).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "kiln/Driver/Compile.h"
#include "kiln/Config.h"
#include "kiln/Pipeline/Cache.h"
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
cl::opt<int> numCtas("num-ctas",
                     cl::desc("CTAs per program, a thread-block cluster on sm_90+ (1, 2, 4 or 8; "
                              "default 1)"),
                     cl::init(1), cl::sub(command), cl::cat(category()));
cl::opt<int> numStages("num-stages", cl::desc("Software-pipelining stages (default 3)"),
                       cl::init(3), cl::sub(command), cl::cat(category()));
cl::list<std::string> plugins("plugin",
                              cl::desc("Load a plugin library (after TRITON_PLUGIN_PATHS and KILN_PLUGIN_PATHS)"),
                              cl::value_desc("path"), cl::sub(command), cl::cat(category()));
cl::list<std::string> pluginOptions("plugin-option", cl::desc(kPluginOptionHelp),
                                    cl::value_desc("plugin.key=value"), cl::sub(command),
                                    cl::cat(category()));
cl::opt<bool> identity("identity",
                       cl::desc("Print 'kiln <version> <key>': a hash of this kiln build, the "
                                "effective pipeline and every loaded plugin's name, version "
                                "and file, as the compile cache keys them"),
                       cl::sub(command), cl::cat(category()));

int run() {
  if (Error error = loadPlugins(plugins))
    return reportError(std::move(error));
  Expected<CompileOptions> options = makeCompileOptions(target, numWarps, numStages, numCtas, pluginOptions);
  if (!options)
    return reportError(options.takeError());
  Expected<Pipeline> pipeline = buildCompilePipeline(*options);
  if (!pipeline)
    return reportError(pipeline.takeError());
  if (identity) {
    // The same parts, hashed the same way, as `kiln compile` puts in its
    // cache key beside the input; a rebuilt kiln or plugin changes it.
    Expected<std::string> pluginPrint = PluginManager::get().fingerprint();
    if (!pluginPrint)
      return reportError(pluginPrint.takeError());
    outs() << "kiln " KILN_VERSION_STRING " "
           << Cache::key({Cache::hostIdentity(), pipeline->fingerprint(), *pluginPrint}) << "\n";
    return 0;
  }
  pipeline->print(outs());
  return 0;
}

CommandRegistration registration(command, run);

} // namespace
} // namespace kiln::driver

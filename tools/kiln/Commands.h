//===- Commands.h - subcommands of the kiln driver --------------*- C++ -*-===//
//
// Each subcommand lives in its own file: it declares an llvm::cl::SubCommand,
// its options with cl::sub(<that subcommand>), and registers itself with a
// static KILN_COMMAND object. kiln.cpp parses the command line and runs the
// subcommand that was named.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_TOOLS_KILN_COMMANDS_H
#define KILN_TOOLS_KILN_COMMANDS_H

#include "kiln/Base/Options.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace kiln::driver {

/// The option category of every kiln option: `--help` shows only these.
llvm::cl::OptionCategory &category();

/// Registers `sub`, run by `main` when it is named on the command line.
struct CommandRegistration {
  CommandRegistration(llvm::cl::SubCommand &sub, std::function<int()> main);
};

/// Loads TRITON_PLUGIN_PATHS, then `explicitPaths` (the --plugin flags).
llvm::Error loadPlugins(const std::vector<std::string> &explicitPaths);

/// The compile options of --target, --num-warps, --num-stages, --num-ctas and the
/// --plugin-option flags (`<plugin>.<key>=<value>`), checked for form; the
/// compile checks that the plugins take them.
llvm::Expected<CompileOptions> makeCompileOptions(llvm::StringRef target, int numWarps,
                                                  int numStages, int numCtas,
                                                  llvm::ArrayRef<std::string> pluginOptions = {});

/// The help of --plugin-option, the same for every command.
inline constexpr const char *kPluginOptionHelp =
    "Set option <key> of a loaded plugin to <value> for this compile (repeatable; "
    "'kiln plugins' lists the options)";

/// Prints `error` as "kiln: error: ..." and returns the exit status 1.
int reportError(llvm::Error error);

} // namespace kiln::driver

#endif

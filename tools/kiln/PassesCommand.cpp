//===- PassesCommand.cpp - kiln passes ------------------------------------===//
//
// Prints the core passes of every back end as a markdown table: the source
// of docs/passes.md.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "kiln/Driver/PassTable.h"

using namespace llvm;

namespace kiln::driver {
namespace {

cl::SubCommand command("passes",
                       "Print every core pass of every back end (id, stage, kiln-opt flag, "
                       "summary, targets) as a markdown table");

int run() {
  if (Error error = writePassTable(outs()))
    return reportError(std::move(error));
  return 0;
}

CommandRegistration registration(command, run);

} // namespace
} // namespace kiln::driver

//===- Isolation.h - running a compile in a child process -------*- C++ -*-===//
//
// A plugin pass that segfaults, aborts, throws or calls exit() takes the
// process that runs it down with it. runIsolated() runs a piece of work (a
// compile) in a forked child instead. The child records where it is — the
// phase, and the step (pass) each of its threads is in — in memory shared
// with the parent, and hands its result back through an anonymous file. The
// parent waits for it and turns a child that died, or that ended without
// handing a result back, into an llvm::Error that names the signal or exit
// status, the phase and the step.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_SUPPORT_ISOLATION_H
#define KILN_SUPPORT_ISOLATION_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace kiln {

/// Runs `work` in a child process and returns what it returned: its bytes,
/// or its error (as a string error with the same message). A child that dies
/// by a signal or ends without a result gives an error such as
///   "<what> crashed (SIGSEGV) in stage 'ttir', in pass 'x.y' placed by ..."
///   "<what> exited with status 0 without a result while parsing 'k.ttir'"
/// Diagnostics the child prints go straight to the shared standard error.
/// The child is killed when the parent dies. Call it while the process has
/// one thread (before any MLIRContext exists): the child is a fork() and
/// inherits only the calling thread. Where fork() is not available, `work`
/// runs in this process.
llvm::Expected<std::string>
runIsolated(llvm::StringRef what, llvm::function_ref<llvm::Expected<std::string>()> work);

/// runIsolated() for work that prints what it has to say itself and returns
/// an exit status (a tool's main).
llvm::Expected<int> runIsolatedStatus(llvm::StringRef what, llvm::function_ref<int()> work);

/// Whether isolation is available on this platform.
bool isolationAvailable();

/// Whether a tool isolates its compiles: `--isolate` or `--no-isolate`
/// (both at once is an error), else the environment variable KILN_ISOLATE
/// (1/0, true/false, on/off, yes/no), else `toolDefault`.
llvm::Expected<bool> wantsIsolation(bool isolateFlag, bool noIsolateFlag, bool toolDefault);

/// What an isolated child is doing, for the parent's message if it dies.
/// Every function is a no-op, costing one load, outside an isolated child.
namespace progress {

/// Whether this process is an isolated child (reports are recorded).
bool enabled();

/// The current phase, worded to follow "crashed (SIGSEGV) ": e.g.
/// "while parsing 'k.ttir'" or "in stage 'ttir'". Clears nothing else.
void setPhase(const llvm::Twine &phase);

/// The calling thread starts `step`, worded to follow "in ": e.g.
/// "pass 'ttir.cse' (core)". Threads have a slot each; endStep() frees it.
void beginStep(const llvm::Twine &step);
void endStep();

} // namespace progress

} // namespace kiln

#endif

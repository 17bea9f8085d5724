//===- HWClock.td - the hwclock dialect and its op ---------*- tablegen -*-===//
//
// Example plugin of code-generation hooks: an op of the plugin's own
// dialect that lives until the llir stage, where the plugin's lowering
// extension turns it into an NVVM special-register read.
//
//===----------------------------------------------------------------------===//
#ifndef HWCLOCK_TD
#define HWCLOCK_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def HWClock_Dialect : Dialect {
  let name = "hwclock";
  let cppNamespace = "::hwclock";
  let summary = "Reading a GPU clock inside a kernel";
  let description = [{
    `hwclock.read` stays in the IR through the ttir and ttgir stages and is
    lowered by the plugin's lowering extension at llir; the plugin option
    `hwclock.source` picks the clock.
  }];
}

def HWClock_ReadOp : Op<HWClock_Dialect, "read", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "the current value of a GPU clock, as i64";
  let description = [{
    `%t = hwclock.read : i64` reads the clock the compile's option
    `hwclock.source` names: `clock` (the SM's cycle counter, `%clock64`,
    the default) or `globaltimer` (nanoseconds of a clock common to the
    GPU, `%globaltimer`). Its effects are those of a read and a write, so
    that no pass hoists it, sinks it or merges two reads.
  }];
  let results = (outs I64:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

#endif

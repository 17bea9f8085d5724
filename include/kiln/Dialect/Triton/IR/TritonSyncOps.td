//===- TritonSyncOps.td - Triton 3.9's synchronising tt ops -*- tablegen -*-===//
//
// Atomic loads, stores and polls, and programmatic dependent launch, as
// Triton 3.9 prints them. Included at the end of TritonOps.td.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_TRITON_SYNC_OPS
#define KILN_TRITON_SYNC_OPS

def TT_AtomicLoadOp : TT_Op<"atomic_load", [
    SameOperandsAndResultShape, TT_SameOperandsAndResultEncoding,
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>]> {
  let summary = "atomic load (Triton 3.9); masked-off elements are unspecified";
  let description = [{
    Each element is read once, atomically, never merged with another load
    or removed (hence the write effect, as for a volatile load): it may
    poll a flag another program writes. `sem` is `acquire` or `relaxed`.
  }];
  let arguments = (ins TT_PtrLike:$ptr, Optional<TT_BoolLike>:$mask,
                       TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr (`,` $mask^)? attr-dict `:`
    functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def TT_AtomicStoreOp : TT_Op<"atomic_store", [
    TT_SameOperandsEncoding, MemoryEffects<[MemWrite<GlobalMemory>]>,
    TypesMatchWith<"value matches pointee type", "ptr", "val",
                   "::kiln::tt::getPointeeType($_self)">,
    TypesMatchWith<"mask shape matches ptr", "ptr", "mask",
                   "::kiln::tt::getI1SameShape(::kiln::tt::getPointeeType($_self))",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "atomic store (Triton 3.9); masked-off elements are not written";
  let description = [{
    `sem` is `release` (earlier accesses of the program are visible
    before the store) or `relaxed`.
  }];
  let arguments = (ins TT_PtrLike:$ptr, TT_Type:$val, Optional<TT_BoolLike>:$mask,
                       TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def TT_AtomicPollOp : TT_Op<"atomic_poll", [
    TT_SameOperandsAndResultEncoding,
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>]> {
  let summary = "spin until each element equals `expected` (Triton 3.9)";
  let description = [{
    Every element is loaded at least once, until it reads `expected` or the
    optional `timeout` (i64 nanoseconds of the GPU's global timer, shared
    by all elements) expires; the whole program waits for all of them.
    The result is true where `expected` was seen. With `acquire`, the
    successful polls acquire. 16-, 32- or 64-bit integers.
  }];
  let arguments = (ins TT_PtrLike:$ptr, TT_IntLike:$expected, Optional<I64>:$timeout,
                       TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_BoolLike:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $expected (`timeout` $timeout^)? attr-dict `:`
    type($ptr) `,` type($expected) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Programmatic dependent launch
//===----------------------------------------------------------------------===//

def TT_GridDependencyWaitOp : TT_Op<"grid_dependency_wait", [
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>]> {
  let summary = "wait until the grids this one depends on have completed (Triton 3.9)";
  let description = [{
    PTX `griddepcontrol.wait` (sm_90): the memory those grids wrote is
    visible after it. A no-op when the launch has no such dependency.
  }];
  let assemblyFormat = "attr-dict";
}

def TT_GridDependencyLaunchDependentsOp : TT_Op<"grid_dependency_launch_dependents", [
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>]> {
  let summary = "let the grids that depend on this one start (Triton 3.9)";
  let description = [{
    PTX `griddepcontrol.launch_dependents` (sm_90): a hint that dependent
    grids may be scheduled; they still wait for this grid's memory.
  }];
  let assemblyFormat = "attr-dict";
}

#endif

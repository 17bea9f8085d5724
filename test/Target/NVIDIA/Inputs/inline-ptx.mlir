// An NVVM op with no LLVM intrinsic: the llir code generator turns it into
// inline PTX before translating.
module attributes {"ttg.num-warps" = 1 : i32} {
  llvm.func @vex2(%x: !llvm.ptr<1>, %global_scratch: !llvm.ptr<1>, %profile_scratch: !llvm.ptr<1>)
      attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %p = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %p : !llvm.ptr<1> -> f32
    %e = nvvm.inline_ptx "ex2.approx.ftz.f32 $0, $1;" ro(%v : f32) -> f32
    llvm.store %e, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}

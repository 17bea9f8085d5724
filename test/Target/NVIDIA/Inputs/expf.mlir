// One libdevice call (__nv_expf) per thread: the llir stage links
// libdevice for it.
module attributes {"ttg.num-warps" = 1 : i32} {
  llvm.func @__nv_expf(f32) -> f32
  llvm.func @vexp(%x: !llvm.ptr<1>, %global_scratch: !llvm.ptr<1>, %profile_scratch: !llvm.ptr<1>)
      attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %p = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v = llvm.load %p : !llvm.ptr<1> -> f32
    %e = llvm.call @__nv_expf(%v) : (f32) -> f32
    llvm.store %e, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}

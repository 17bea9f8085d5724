// A loop that carries a two-field struct of bf16 (a tensor's registers, as
// kiln's lowering carries a loop's tensor), built with insertvalue at the
// end of each iteration and read field by field into a bf16x2 at the top.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.shared = 0 : i32} {
  llvm.func @carried(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>, %n: i32,
                     %global_scratch: !llvm.ptr<1>, %profile_scratch: !llvm.ptr<1>)
      attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>} {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %i0 = llvm.mlir.constant(0 : i64) : i64
    %i1 = llvm.mlir.constant(1 : i64) : i64
    %zero = llvm.mlir.zero : !llvm.struct<(bf16, bf16)>
    %poison = llvm.mlir.poison : vector<2xbf16>
    %undef = llvm.mlir.undef : !llvm.struct<(bf16, bf16)>
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %start = llvm.icmp "sgt" %n, %c0 : i32
    llvm.cond_br %start, ^loop(%c0, %zero : i32, !llvm.struct<(bf16, bf16)>), ^done
  ^loop(%i: i32, %t: !llvm.struct<(bf16, bf16)>):
    %a = llvm.extractvalue %t[0] : !llvm.struct<(bf16, bf16)>
    %b = llvm.extractvalue %t[1] : !llvm.struct<(bf16, bf16)>
    %v0 = llvm.insertelement %a, %poison[%i0 : i64] : vector<2xbf16>
    %v1 = llvm.insertelement %b, %v0[%i1 : i64] : vector<2xbf16>
    %packed = llvm.bitcast %v1 : vector<2xbf16> to i32
    %row = llvm.mul %i, %c2 : i32
    %slot = llvm.add %row, %tid : i32
    %po = llvm.getelementptr %out[%slot] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    llvm.store %packed, %po : i32, !llvm.ptr<1>
    %pa = llvm.getelementptr %in[%slot] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %na = llvm.load %pa : !llvm.ptr<1> -> f32
    %pb = llvm.getelementptr %pa[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    %nb = llvm.load %pb : !llvm.ptr<1> -> f32
    %ha = llvm.fptrunc %na : f32 to bf16
    %hb = llvm.fptrunc %nb : f32 to bf16
    %s0 = llvm.insertvalue %ha, %undef[0] : !llvm.struct<(bf16, bf16)>
    %s1 = llvm.insertvalue %hb, %s0[1] : !llvm.struct<(bf16, bf16)>
    %next = llvm.add %i, %c1 : i32
    %more = llvm.icmp "slt" %next, %n : i32
    llvm.cond_br %more, ^loop(%next, %s1 : i32, !llvm.struct<(bf16, bf16)>), ^done
  ^done:
    llvm.return
  }
}

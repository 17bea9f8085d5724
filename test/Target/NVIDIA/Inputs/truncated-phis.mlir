// A loop that carries two f32 values and packs them into f16x2 at the top
// of each iteration (the register operand of a tensor-core product, here
// stored): LLVM's fold of fptrunc through phis gives this shape when a
// kernel converts at the end of an iteration. A third value, also
// truncated but used again in f32 (a running sum), must stay f32.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.shared = 0 : i32} {
  llvm.func @carried(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>, %sums: !llvm.ptr<1>, %n: i32,
                     %global_scratch: !llvm.ptr<1>, %profile_scratch: !llvm.ptr<1>)
      attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>} {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %i0 = llvm.mlir.constant(0 : i64) : i64
    %i1 = llvm.mlir.constant(1 : i64) : i64
    %zero = llvm.mlir.constant(0.0 : f32) : f32
    %poison = llvm.mlir.poison : vector<2xf16>
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %start = llvm.icmp "sgt" %n, %c0 : i32
    llvm.cond_br %start, ^loop(%c0, %zero, %zero, %zero : i32, f32, f32, f32), ^done(%zero : f32)
  ^loop(%i: i32, %a: f32, %b: f32, %s: f32):
    %ha = llvm.fptrunc %a : f32 to f16
    %hb = llvm.fptrunc %b : f32 to f16
    %v0 = llvm.insertelement %ha, %poison[%i0 : i64] : vector<2xf16>
    %v1 = llvm.insertelement %hb, %v0[%i1 : i64] : vector<2xf16>
    %packed = llvm.bitcast %v1 : vector<2xf16> to i32
    %row = llvm.mul %i, %c2 : i32
    %slot = llvm.add %row, %tid : i32
    %po = llvm.getelementptr %out[%slot] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    llvm.store %packed, %po : i32, !llvm.ptr<1>
    %pa = llvm.getelementptr %in[%slot] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %na = llvm.load %pa : !llvm.ptr<1> -> f32
    %pb = llvm.getelementptr %pa[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    %nb = llvm.load %pb : !llvm.ptr<1> -> f32
    %hs = llvm.fptrunc %s : f32 to f16
    %ps = llvm.getelementptr %sums[%slot] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f16
    llvm.store %hs, %ps : f16, !llvm.ptr<1>
    %ns = llvm.fadd %s, %na : f32
    %next = llvm.add %i, %c1 : i32
    %more = llvm.icmp "slt" %next, %n : i32
    llvm.cond_br %more, ^loop(%next, %na, %nb, %ns : i32, f32, f32, f32), ^done(%ns : f32)
  ^done(%total: f32):
    %pt = llvm.getelementptr %sums[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    llvm.store %total, %pt : f32, !llvm.ptr<1>
    llvm.return
  }
}

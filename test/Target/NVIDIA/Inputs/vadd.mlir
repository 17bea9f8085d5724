// A vector add as the llir stage holds it before its code generator: the
// LLVM and NVVM dialects, Triton's kernel ABI (the user's arguments, then
// the global_scratch and profile_scratch pointers), 4 warps, 4 floats per
// thread loaded as one 16-byte vector; the arguments keep the tt
// attributes the lowering read.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.shared = 0 : i32} {
  llvm.func @vadd(%x: !llvm.ptr<1> {tt.divisibility = 16 : i32}, %y: !llvm.ptr<1> {tt.divisibility = 16 : i32},
                  %z: !llvm.ptr<1> {tt.divisibility = 16 : i32}, %n: i32,
                  %global_scratch: !llvm.ptr<1>, %profile_scratch: !llvm.ptr<1>)
      attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %ctaid = nvvm.read.ptx.sreg.ctaid.x : i32
    %c512 = llvm.mlir.constant(512 : i32) : i32
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %base = llvm.mul %ctaid, %c512 : i32
    %offset = llvm.mul %tid, %c4 : i32
    %i = llvm.add %base, %offset : i32
    %inside = llvm.icmp "slt" %i, %n : i32
    llvm.cond_br %inside, ^body, ^done
  ^body:
    %px = llvm.getelementptr %x[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %py = llvm.getelementptr %y[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %pz = llvm.getelementptr %z[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %vx = llvm.load %px {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
    %vy = llvm.load %py {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
    %vz = llvm.fadd %vx, %vy : vector<4xf32>
    llvm.store %vz, %pz {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
    llvm.br ^done
  ^done:
    llvm.return
  }
}

// Triton 3.9's synchronising ops in the interpreter: an acquire load and a
// release store (masked), a poll that sees its value, a scalar poll that
// times out, approx_divf, ttg.barrier and the grid-dependency ops.
module {
  tt.func public @sync39(%p: !tt.ptr<i32>, %q: !tt.ptr<i32>, %r: !tt.ptr<i32>,
                         %s: !tt.ptr<i32>, %f: !tt.ptr<f32>, %g: !tt.ptr<f32>, %n: i32) {
    tt.grid_dependency_wait
    %c8 = arith.constant 8 : i32
    %c7 = arith.constant 7 : i32
    %t = arith.constant 1000 : i64
    %ones = arith.constant dense<1> : tensor<8xi32>
    %c1f = arith.constant dense<1.000000e+00> : tensor<8xf32>
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c8 : i32
    %range = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %bs = tt.splat %base : i32 -> tensor<8xi32>
    %o = arith.addi %bs, %range : tensor<8xi32>
    %ns = tt.splat %n : i32 -> tensor<8xi32>
    %m = arith.cmpi slt, %o, %ns : tensor<8xi32>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %pa = tt.addptr %ps, %o : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    %v = tt.atomic_load acquire, gpu, %pa, %m : (tensor<8x!tt.ptr<i32>>, tensor<8xi1>) -> tensor<8xi32>
    %qs = tt.splat %q : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %qa = tt.addptr %qs, %o : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    tt.atomic_store release, cta, %qa, %v, %m : tensor<8x!tt.ptr<i32>>
    %rs = tt.splat %r : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %ra = tt.addptr %rs, %o : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    %ok = tt.atomic_poll acquire, gpu, %ra, %ones : tensor<8x!tt.ptr<i32>>, tensor<8xi32> -> tensor<8xi1>
    %ok2 = tt.atomic_poll relaxed, sys, %r, %c7 timeout %t : !tt.ptr<i32>, i32 -> i1
    ttg.barrier all
    %a = arith.extui %ok : tensor<8xi1> to tensor<8xi32>
    %b1 = arith.extui %ok2 : i1 to i32
    %b2 = arith.muli %b1, %c8 : i32
    %b = tt.splat %b2 : i32 -> tensor<8xi32>
    %flags = arith.addi %a, %b : tensor<8xi32>
    %ss = tt.splat %s : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %sa = tt.addptr %ss, %o : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    tt.store %sa, %flags, %m : tensor<8x!tt.ptr<i32>>
    %fs = tt.splat %f : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %fa = tt.addptr %fs, %o : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %x = tt.load %fa, %m : tensor<8x!tt.ptr<f32>>
    %x1 = arith.addf %x, %c1f : tensor<8xf32>
    %d = tt.approx_divf %x, %x1 : tensor<8xf32>
    %gs = tt.splat %g : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %ga = tt.addptr %gs, %o : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %ga, %d, %m : tensor<8x!tt.ptr<f32>>
    tt.grid_dependency_launch_dependents
    tt.return
  }
}

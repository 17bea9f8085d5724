// y[i] = x[i] + 1 for i < n, 16 lanes per program; loads and stores masked.
module {
  tt.func public @add_one(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %n: i32) {
    %c16 = arith.constant 16 : i32
    %one = arith.constant dense<1.0> : tensor<16xf32>
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c16 : i32
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %b = tt.splat %base : i32 -> tensor<16xi32>
    %offs = arith.addi %b, %r : tensor<16xi32>
    %nn = tt.splat %n : i32 -> tensor<16xi32>
    %mask = arith.cmpi slt, %offs, %nn : tensor<16xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %offs : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %v = tt.load %xa, %mask : tensor<16x!tt.ptr<f32>>
    %w = arith.addf %v, %one : tensor<16xf32>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %offs : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    tt.store %ya, %w, %mask : tensor<16x!tt.ptr<f32>>
    tt.return
  }
}

// Accumulates into y without initialising it first: y[i] += x[i].
module {
  tt.func public @accumulate(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %r : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %a = tt.load %xa : tensor<8x!tt.ptr<f32>>
    %b = tt.load %ya : tensor<8x!tt.ptr<f32>>
    %s = arith.addf %a, %b : tensor<8xf32>
    tt.store %ya, %s : tensor<8x!tt.ptr<f32>>
    tt.return
  }
}

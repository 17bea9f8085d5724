// Stores 16 lanes at x + off with no mask: a negative off writes before the
// start of the buffer.
module {
  tt.func public @store_at(%x: !tt.ptr<i32>, %off: i32) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %o = tt.splat %off : i32 -> tensor<16xi32>
    %offs = arith.addi %o, %r : tensor<16xi32>
    %xp = tt.splat %x : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %xa = tt.addptr %xp, %offs : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
    tt.store %xa, %r : tensor<16x!tt.ptr<i32>>
    tt.return
  }
}

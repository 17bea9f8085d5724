// arith.select between two block pointers: valid IR, but only memory ops
// and control flow handle block pointers in the interpreter.
module {
  tt.func public @k(%x: !tt.ptr<f32>, %c: i1) {
    %i0 = arith.constant 0 : i32
    %i8 = arith.constant 8 : i32
    %l1 = arith.constant 1 : i64
    %l16 = arith.constant 16 : i64
    %p = tt.make_tensor_ptr %x, [%l16], [%l1], [%i0] {order = array<i32: 0>} : <tensor<8xf32>>
    %q = tt.make_tensor_ptr %x, [%l16], [%l1], [%i8] {order = array<i32: 0>} : <tensor<8xf32>>
    %s = arith.select %c, %p, %q : !tt.ptr<tensor<8xf32>>
    %v = tt.load %s : !tt.ptr<tensor<8xf32>>
    tt.return
  }
}

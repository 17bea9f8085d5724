// Block pointers at the edges of a 6x10 matrix x (row stride 10): program
// (m, n) loads 4x8 blocks at rows 4m-1.., columns 8n-3.. (before the first
// row and column, and past the last ones), zero-padded on both dimensions,
// twice, advancing one column inside an scf.for, and stores their sum through
// a block pointer at rows 4m.., columns 8n.. of y, boundary-checked against
// 5x9 so that the last row and column of y keep their -1. Program
// (0, 0) also loads x[0..8) as a 1-D block of a parent of 5 elements,
// NaN-padded, into z.
module {
  tt.func public @edges(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %z: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %c8 = arith.constant 8 : i32
    %c1_i64 = arith.constant 1 : i64
    %c5_i64 = arith.constant 5 : i64
    %c6_i64 = arith.constant 6 : i64
    %c9_i64 = arith.constant 9 : i64
    %c10_i64 = arith.constant 10 : i64
    %zero = arith.constant dense<0.0> : tensor<4x8xf32>
    %m = tt.get_program_id x : i32
    %n = tt.get_program_id y : i32
    %row = arith.muli %m, %c4 : i32
    %col = arith.muli %n, %c8 : i32
    %row0 = arith.subi %row, %c1 : i32
    %col0 = arith.subi %col, %c3 : i32
    %p0 = tt.make_tensor_ptr %x, [%c6_i64, %c10_i64], [%c10_i64, %c1_i64], [%row0, %col0] {order = array<i32: 1, 0>} : <tensor<4x8xf32>>
    %res:2 = scf.for %k = %c0 to %c2 step %c1 iter_args(%p = %p0, %acc = %zero) -> (!tt.ptr<tensor<4x8xf32>>, tensor<4x8xf32>) : i32 {
      %v = tt.load %p {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<4x8xf32>>
      %sum = arith.addf %acc, %v : tensor<4x8xf32>
      %next = tt.advance %p, [%c0, %c1] : <tensor<4x8xf32>>
      scf.yield %next, %sum : !tt.ptr<tensor<4x8xf32>>, tensor<4x8xf32>
    }
    %q = tt.make_tensor_ptr %y, [%c5_i64, %c9_i64], [%c10_i64, %c1_i64], [%row, %col] {order = array<i32: 1, 0>} : <tensor<4x8xf32>>
    tt.store %q, %res#1 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<4x8xf32>>
    %mn = arith.addi %m, %n : i32
    %first = arith.cmpi eq, %mn, %c0 : i32
    scf.if %first {
      %r = tt.make_tensor_ptr %x, [%c5_i64], [%c1_i64], [%c0] {order = array<i32: 0>} : <tensor<8xf32>>
      %w = tt.load %r {boundaryCheck = array<i32: 0>, padding = 2 : i32} : !tt.ptr<tensor<8xf32>>
      %s = tt.make_tensor_ptr %z, [%c5_i64], [%c1_i64], [%c0] {order = array<i32: 0>} : <tensor<8xf32>>
      tt.store %s, %w : !tt.ptr<tensor<8xf32>>
    }
    tt.return
  }
}

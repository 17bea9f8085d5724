// Tensor descriptors made in the kernel: program (m, n) loads the 4x8 block
// of the 6x10 matrix x at (4m+1, 8n+1), reading zero past the last row and
// column, and stores it twice over at (4m, 8n) through a descriptor of y
// whose shape is 5x9, so that the last row and column of y keep their -1.
// Program (0, 0) also copies x[0..8) through a NaN-padded 1-D descriptor of
// 5 elements into z.
module {
  tt.func public @desc_edges(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %z: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %c5 = arith.constant 5 : i32
    %c6 = arith.constant 6 : i32
    %c8 = arith.constant 8 : i32
    %c9 = arith.constant 9 : i32
    %c10 = arith.constant 10 : i32
    %c1_i64 = arith.constant 1 : i64
    %c10_i64 = arith.constant 10 : i64
    %m = tt.get_program_id x : i32
    %n = tt.get_program_id y : i32
    %row = arith.muli %m, %c4 : i32
    %col = arith.muli %n, %c8 : i32
    %row1 = arith.addi %row, %c1 : i32
    %col1 = arith.addi %col, %c1 : i32
    %dx = tt.make_tensor_descriptor %x, [%c6, %c10], [%c10_i64, %c1_i64] : !tt.ptr<f32>, !tt.tensordesc<tensor<4x8xf32>>
    %v = tt.descriptor_load %dx[%row1, %col1] : !tt.tensordesc<tensor<4x8xf32>> -> tensor<4x8xf32>
    %twice = arith.addf %v, %v : tensor<4x8xf32>
    %dy = tt.make_tensor_descriptor %y, [%c5, %c9], [%c10_i64, %c1_i64] : !tt.ptr<f32>, !tt.tensordesc<tensor<4x8xf32>>
    tt.descriptor_store %dy[%row, %col], %twice : !tt.tensordesc<tensor<4x8xf32>>, tensor<4x8xf32>
    %mn = arith.addi %m, %n : i32
    %first = arith.cmpi eq, %mn, %c0 : i32
    scf.if %first {
      %dr = tt.make_tensor_descriptor %x, [%c5], [%c1_i64] {padding = 2 : i32} : !tt.ptr<f32>, !tt.tensordesc<tensor<8xf32>>
      %w = tt.descriptor_load %dr[%c0] : !tt.tensordesc<tensor<8xf32>> -> tensor<8xf32>
      %dz = tt.make_tensor_descriptor %z, [%c8], [%c1_i64] : !tt.ptr<f32>, !tt.tensordesc<tensor<8xf32>>
      tt.descriptor_store %dz[%c0], %w : !tt.tensordesc<tensor<8xf32>>, tensor<8xf32>
    }
    tt.return
  }
}

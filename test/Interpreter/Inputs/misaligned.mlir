// Reads an f32 one byte into the buffer, through an i8 pointer cast back.
module {
  tt.func public @misaligned(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
    %c1 = arith.constant 1 : i32
    %b = tt.bitcast %x : !tt.ptr<f32> -> !tt.ptr<i8>
    %b1 = tt.addptr %b, %c1 : !tt.ptr<i8>, i32
    %p = tt.bitcast %b1 : !tt.ptr<i8> -> !tt.ptr<f32>
    %v = tt.load %p : !tt.ptr<f32>
    tt.store %y, %v : !tt.ptr<f32>
    tt.return
  }
}

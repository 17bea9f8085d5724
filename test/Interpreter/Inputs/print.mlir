// Prints a scalar and a 2x2 tensor from every program.
module {
  tt.func public @print(%n: i32) {
    %pid = tt.get_program_id x : i32
    tt.print " pid: " {hex = false, isSigned = array<i32: 1>} : %pid : i32
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %s = tt.splat %n : i32 -> tensor<4xi32>
    %v = arith.muli %r, %s : tensor<4xi32>
    %t = tt.reshape %v : tensor<4xi32> -> tensor<2x2xi32>
    %f = arith.sitofp %t : tensor<2x2xi32> to tensor<2x2xf32>
    tt.print " v: " {hex = false, isSigned = array<i32: 1>} : %t : tensor<2x2xi32>
    tt.print " f: " {hex = false, isSigned = array<i32: 1>} : %f : tensor<2x2xf32>
    tt.return
  }
}

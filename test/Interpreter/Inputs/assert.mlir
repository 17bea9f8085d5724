// Asserts that every x[i] is below 3; program 1 holds a 7 at element 2.
module {
  tt.func public @check_small(%x: !tt.ptr<i32>) {
    %c4 = arith.constant 4 : i32
    %three = arith.constant dense<3> : tensor<4xi32>
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c4 : i32
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %b = tt.splat %base : i32 -> tensor<4xi32>
    %offs = arith.addi %b, %r : tensor<4xi32>
    %xp = tt.splat %x : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
    %xa = tt.addptr %xp, %offs : tensor<4x!tt.ptr<i32>>, tensor<4xi32>
    %v = tt.load %xa : tensor<4x!tt.ptr<i32>>
    tt.print " checking" {hex = false, isSigned = array<i32>}
    %ok = arith.cmpi slt, %v, %three : tensor<4xi32>
    tt.assert %ok, "x must be below 3" : tensor<4xi1>
    tt.return
  }
}

// Loops that end next to the top of their induction variable's range.
// out[0]: iterations of an unsigned i32 loop from 0x7FFFFFF0 to 0x80000005;
// out[1]: its last iv (0x80000004); out[2]: iterations of an unsigned i8
// loop 250 to 255 step 4 (the next iv, 258, wraps); out[3]: iterations of
// a signed i64 loop INT64_MAX-5 to INT64_MAX step 4 (the next iv overflows).
module {
  tt.func public @k(%out: !tt.ptr<i32>) {
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %lb = arith.constant 2147483632 : i32
    %ub = arith.constant -2147483643 : i32
    %n:2 = scf.for unsigned %i = %lb to %ub step %one iter_args(%c = %z, %last = %z) -> (i32, i32) : i32 {
      %c1 = arith.addi %c, %one : i32
      scf.yield %c1, %i : i32, i32
    }
    %lb8 = arith.constant -6 : i8
    %ub8 = arith.constant -1 : i8
    %s8 = arith.constant 4 : i8
    %n8 = scf.for unsigned %i = %lb8 to %ub8 step %s8 iter_args(%c = %z) -> (i32) : i8 {
      %c1 = arith.addi %c, %one : i32
      scf.yield %c1 : i32
    }
    %lb64 = arith.constant 9223372036854775802 : i64
    %ub64 = arith.constant 9223372036854775807 : i64
    %s64 = arith.constant 4 : i64
    %n64 = scf.for %i = %lb64 to %ub64 step %s64 iter_args(%c = %z) -> (i32) : i64 {
      %c1 = arith.addi %c, %one : i32
      scf.yield %c1 : i32
    }
    %p1 = tt.addptr %out, %one : !tt.ptr<i32>, i32
    %two = arith.constant 2 : i32
    %p2 = tt.addptr %out, %two : !tt.ptr<i32>, i32
    %three = arith.constant 3 : i32
    %p3 = tt.addptr %out, %three : !tt.ptr<i32>, i32
    tt.store %out, %n#0 : !tt.ptr<i32>
    tt.store %p1, %n#1 : !tt.ptr<i32>
    tt.store %p2, %n8 : !tt.ptr<i32>
    tt.store %p3, %n64 : !tt.ptr<i32>
    tt.return
  }
}

// A cast to an unsupported integer width.
module {
  tt.func public @k() {
    %lb = arith.constant 0 : i32
    %lb4 = arith.trunci %lb : i32 to i4
    tt.return
  }
}

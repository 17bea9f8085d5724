// arith.constant of an integer width the interpreter does not model.
module {
  tt.func public @k() {
    %c = arith.constant 3 : i4
    tt.return
  }
}

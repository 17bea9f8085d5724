// A float format the interpreter has no encoding for, as a tensor.
module {
  tt.func public @k() {
    %c = arith.constant dense<1.0> : tensor<4xf8E4M3B11FNUZ>
    tt.return
  }
}

// ub.poison of a block-pointer type.
module {
  tt.func public @k() {
    %p = ub.poison : !tt.ptr<tensor<8xf32>>
    tt.return
  }
}

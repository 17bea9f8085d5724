// A poll without a timeout whose flag no earlier program set: on the GPU
// it would wait for another program; the interpreter runs programs one
// after another, so it stops with an error instead of hanging.
module {
  tt.func public @wait_flag(%flags: !tt.ptr<i32>) {
    %c1 = arith.constant 1 : i32
    %pid = tt.get_program_id x : i32
    %f = tt.addptr %flags, %pid : !tt.ptr<i32>, i32
    %seen = tt.atomic_poll acquire, gpu, %f, %c1 : !tt.ptr<i32>, i32 -> i1
    tt.return
  }
}

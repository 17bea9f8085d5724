// RUN: kiln-opt %s -split-input-file -test-print-axis-info -verify-diagnostics -o /dev/null

// Ranges, constants and sums of them; divisibility is the largest power of
// two dividing the first element of every run (2^62 for 0: unknown).
tt.func @ranges() {
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant_value = 1}}
  %one = arith.constant dense<1> : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [1], constancy = [1], constant_value = <none>}}
  %0 = arith.addi %r, %one : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [128], constant_value = 128}}
  %c128 = arith.constant dense<128> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant_value = 129}}
  %1 = arith.addi %one, %c128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [64], constancy = [1], constant_value = <none>}}
  %r64 = tt.make_range {end = 192 : i32, start = 64 : i32} : tensor<128xi32>
  // A decreasing sequence is not contiguous.
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant_value = <none>}}
  %2 = arith.subi %c128, %r64 : tensor<128xi32>
  tt.return
}

// -----

// The corpus pattern: pid * BLOCK + arange, added to a 16-byte aligned
// pointer; divisibility of pointers is in bytes.
tt.func @block_offsets(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1], constant_value = 1024}}
  %c1024 = arith.constant 1024 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %pid = tt.get_program_id x : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1], constant_value = <none>}}
  %base = arith.muli %pid, %c1024 : i32
  // expected-remark @below {{contiguity = [1024], divisibility = [4611686018427387904], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1024], constant_value = <none>}}
  %s = tt.splat %base : i32 -> tensor<1024xi32>
  // expected-remark @below {{contiguity = [1024], divisibility = [1024], constancy = [1], constant_value = <none>}}
  %offs = arith.addi %s, %r : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024], constant_value = <none>}}
  %p = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  // expected-remark @below {{contiguity = [1024], divisibility = [16], constancy = [1], constant_value = <none>}}
  %ptrs = tt.addptr %p, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  // An unknown bound against a run: equal only within 1s.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1024], constant_value = <none>}}
  %ns = tt.splat %n : i32 -> tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  // A bound divisible by 16: the mask is constant in runs of 16.
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024], constant_value = 16}}
  %c16 = arith.constant dense<16> : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], constant_value = <none>}}
  %mask16 = arith.cmpi slt, %offs, %c16 : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %v = tt.load %ptrs, %mask : tensor<1024x!tt.ptr<f32>>
  tt.return
}

// -----

// 2-D: a row-major tile with a stride of 16 elements.
tt.func @tile(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [32], divisibility = [4611686018427387904], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  // expected-remark @below {{contiguity = [32, 1], divisibility = [4611686018427387904, 1], constancy = [1, 1], constant_value = <none>}}
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [32, 1], constant_value = 16}}
  %c16 = arith.constant dense<16> : tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1], constant_value = <none>}}
  %rowOffs = arith.muli %rows, %c16 : tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 16], constant_value = <none>}}
  %b = tt.broadcast %rowOffs : tensor<32x1xi32> -> tensor<32x16xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [4611686018427387904], constancy = [1], constant_value = <none>}}
  %c = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  // expected-remark @below {{contiguity = [1, 16], divisibility = [1, 4611686018427387904], constancy = [1, 1], constant_value = <none>}}
  %cols = tt.expand_dims %c {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  // expected-remark @below {{contiguity = [1, 16], divisibility = [1, 4611686018427387904], constancy = [32, 1], constant_value = <none>}}
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<32x16xi32>
  // expected-remark @below {{contiguity = [1, 16], divisibility = [1, 16], constancy = [1, 1], constant_value = <none>}}
  %offs = arith.addi %b, %cb : tensor<32x16xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [32, 16], constant_value = <none>}}
  %p = tt.splat %x : !tt.ptr<f16> -> tensor<32x16x!tt.ptr<f16>>
  // expected-remark @below {{contiguity = [1, 16], divisibility = [2, 16], constancy = [1, 1], constant_value = <none>}}
  %ptrs = tt.addptr %p, %offs : tensor<32x16x!tt.ptr<f16>>, tensor<32x16xi32>
  tt.return
}

// -----

// Division, remainder and shifts by constants.
tt.func @divrem() {
  // expected-remark @below {{contiguity = [128], divisibility = [4611686018427387904], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [128], constant_value = 64}}
  %c64 = arith.constant dense<64> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64], constant_value = <none>}}
  %q = arith.divsi %r, %c64 : tensor<128xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [64], constancy = [1], constant_value = <none>}}
  %m = arith.remsi %r, %c64 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant_value = 1}}
  %c1 = arith.constant dense<1> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [1], constant_value = <none>}}
  %s = arith.shli %r, %c1 : tensor<128xi32>
  tt.return
}

// -----

// Hints: on arguments (an integer or one value per dimension) and on ops
// (tl.multiple_of / tl.max_contiguous put them there).
tt.func @hints(%a: i32 {tt.divisibility = 8 : i32},
               %t: tensor<64xi32> {tt.contiguity = dense<64> : tensor<1xi32>, tt.divisibility = dense<16> : tensor<1xi32>}) {
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [64], constant_value = <none>}}
  %s = tt.splat %a : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [8], constancy = [1], constant_value = <none>}}
  %sum = arith.addi %s, %t : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [32], constancy = [1], constant_value = <none>}}
  %h = arith.addi %s, %t {tt.divisibility = dense<32> : tensor<1xi32>} : tensor<64xi32>
  tt.return
}

// -----

// Loops: the induction variable is lb + k * step; iteration arguments are
// what holds for the initial value and every yielded one.
tt.func @loop(%n: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [1], constant_value = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [1], constant_value = 256}}
  %c256 = arith.constant 256 : i32
  // expected-remark @below {{contiguity = [256], divisibility = [4611686018427387904], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  // expected-remark @below {{contiguity = [256], divisibility = [256], constancy = [1], constant_value = <none>}}
  %res = scf.for %i = %c0 to %n step %c256 iter_args(%acc = %r) -> (tensor<256xi32>) : i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [256], constant_value = <none>}}
    %s = tt.splat %i : i32 -> tensor<256xi32>
    // expected-remark @below {{contiguity = [256], divisibility = [256], constancy = [1], constant_value = <none>}}
    %next = arith.addi %acc, %s : tensor<256xi32>
    scf.yield %next : tensor<256xi32>
  }
  tt.return
}

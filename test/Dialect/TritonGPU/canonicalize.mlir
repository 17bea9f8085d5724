// RUN: kiln-opt %s -canonicalize | FileCheck %s
// RUN: kiln-opt %s -cse | FileCheck %s --check-prefix=CSE

// ttg.convert_layout folds away when it converts to the layout a value
// already has, and a conversion of a conversion starts from the original;
// the memory effects of ttg.local_alloc let CSE and DCE work on it.

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @same_layout
  // CHECK-SAME: (%[[X:.*]]: tensor
  // CHECK-NEXT: tt.return %[[X]]
  tt.func @same_layout(%x: tensor<256xf32, #b1>) -> tensor<256xf32, #b1> {
    %y = ttg.convert_layout %x : tensor<256xf32, #b1> -> tensor<256xf32, #b1>
    tt.return %y : tensor<256xf32, #b1>
  }

  // CHECK-LABEL: tt.func @chain
  // CHECK-SAME: (%[[X:.*]]: tensor
  // CHECK-NEXT: %[[Y:.*]] = ttg.convert_layout %[[X]] : tensor<256xf32, #{{.*}}> -> tensor<256xf32, #{{.*}}>
  // CHECK-NEXT: tt.return %[[Y]]
  tt.func @chain(%x: tensor<256xf32, #b1>) -> tensor<256xf32, #b4> {
    %y = ttg.convert_layout %x : tensor<256xf32, #b1> -> tensor<256xf32, #b2>
    %z = ttg.convert_layout %y : tensor<256xf32, #b2> -> tensor<256xf32, #b4>
    tt.return %z : tensor<256xf32, #b4>
  }

  // A round trip is no conversion at all.
  // CHECK-LABEL: tt.func @round_trip
  // CHECK-SAME: (%[[X:.*]]: tensor
  // CHECK-NEXT: tt.return %[[X]]
  tt.func @round_trip(%x: tensor<256xf32, #b1>) -> tensor<256xf32, #b1> {
    %y = ttg.convert_layout %x : tensor<256xf32, #b1> -> tensor<256xf32, #b2>
    %z = ttg.convert_layout %y : tensor<256xf32, #b2> -> tensor<256xf32, #b1>
    tt.return %z : tensor<256xf32, #b1>
  }

  // An allocation nobody uses is dead, mutable or not.
  // CHECK-LABEL: tt.func @dead_alloc
  // CHECK-NEXT: tt.return
  tt.func @dead_alloc(%x: tensor<256xf32, #b1>) {
    %a = ttg.local_alloc %x : (tensor<256xf32, #b1>) -> !ttg.memdesc<256xf32, #shared, #smem>
    %m = ttg.local_alloc : () -> !ttg.memdesc<256xf32, #shared, #smem, mutable>
    tt.return
  }

  // Until it is given an address, an immutable buffer is a value: two of
  // the same tensor are one. Mutable buffers are distinct memory.
  // CSE-LABEL: tt.func @cse_alloc
  // CSE: %[[A:.*]] = ttg.local_alloc %
  // CSE-NOT: ttg.local_alloc %
  // CSE: %[[M:.*]] = ttg.local_alloc :
  // CSE: %[[N:.*]] = ttg.local_alloc :
  // CSE: tt.return %[[A]], %[[A]], %[[M]], %[[N]]
  tt.func @cse_alloc(%x: tensor<256xf32, #b1>) -> (!ttg.memdesc<256xf32, #shared, #smem>, !ttg.memdesc<256xf32, #shared, #smem>, !ttg.memdesc<256xf32, #shared, #smem, mutable>, !ttg.memdesc<256xf32, #shared, #smem, mutable>) {
    %a = ttg.local_alloc %x : (tensor<256xf32, #b1>) -> !ttg.memdesc<256xf32, #shared, #smem>
    %b = ttg.local_alloc %x : (tensor<256xf32, #b1>) -> !ttg.memdesc<256xf32, #shared, #smem>
    %m = ttg.local_alloc : () -> !ttg.memdesc<256xf32, #shared, #smem, mutable>
    %n = ttg.local_alloc : () -> !ttg.memdesc<256xf32, #shared, #smem, mutable>
    tt.return %a, %b, %m, %n : !ttg.memdesc<256xf32, #shared, #smem>, !ttg.memdesc<256xf32, #shared, #smem>, !ttg.memdesc<256xf32, #shared, #smem, mutable>, !ttg.memdesc<256xf32, #shared, #smem, mutable>
  }
}

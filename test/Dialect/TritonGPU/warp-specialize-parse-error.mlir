// REQUIRES: valgrind
// RUN: not valgrind -q kiln-opt %s 2>&1 | FileCheck %s

// A parse error in a partition after it defined a value that the default
// region used ahead of it: the half-parsed op is freed in one piece and the
// error reported. Found by mutation fuzzing, reduced: this wrote to freed
// memory (at times an abort, always a valgrind error).

// CHECK: error: expected ':'
// CHECK-NOT: {{Invalid (read|write)|Stack dump}}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
    ttg.warp_specialize(%arg16, %arg15, %7, %2, %0, %arg0, %1, %arg5, %arg17, %arg18, %23, %arg10)
    default {
      %27 = scf.for %arg19 = %19 to %18 step %24 iter_args(%arg20 = %c0_i32) -> (i32)  : i32 {
        scf.if %36 {
        }
        %38:2 = scf.for %arg21 = %c0_i32 to %17 step %c1_i32 iter_args(%arg22 = %cst, %arg23 = %37) -> (tensor<128x128xf32, #mma>, i32)  : i32 {
          scf.if %57 {
          }
        }
        scf.yield %48 : i32
      }
    }
    partition0(%arg19: i32, %arg20: i32, %arg21: !ttg.memdesc<4x1xi64, #shared1, #smem, mutable>, %arg22: !ttg.memdesc<4x1xi64, #shared1, #smem, mutable>, %arg23: !ttg.memdesc<4x128x64xf16, #shared, #smem, mutable>, %arg24: !tt.tensordesc<tensor<128x64xf16, #shared>>, %arg25: !ttg.memdesc<4x64x128xf16, #shared, #smem, mutable>, %arg26: !tt.tensordesc<tensor<64x128xf16, #shared>>, %arg27: i32, %arg28: i32, %arg29: i32, %arg30: !tt.tensordesc<tensor<128x128xf16, #shared>>) num_warps(1) {
          %48 = arith.remsi %arg34, %c4_i32_5 : i32
          %50 = arith.divsi %arg34, %c4_i32_5 : i32
          %51 = arith.andi %50, %c1_i32_4 : i32
          %52 = arith.xori %51, %c1_i32_4 : i32
          %53 = ttg.memdesc_index %arg22[%48] : !ttg.memdesc<4x1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
          %55 = ttg.memdesc_index %arg23[%48] : !ttg.memdesc<4x128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
        }

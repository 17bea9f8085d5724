// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Rejected tensor-core encodings, one check each.

// expected-error @+1 {{#ttg.nvidia_mma versionMajor must be 2 or 3, got 1}}
#mma = #ttg.nvidia_mma<{versionMajor = 1, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>

// -----

// expected-error @+1 {{version 2 needs instrShape [16, 8]}}
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16]}>

// -----

// expected-error @+1 {{version 3 needs instrShape [16, N, K]}}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 96, 16]}>

// -----

// expected-error @+1 {{#ttg.nvidia_mma needs 'instrShape'}}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1]}>

// -----

// expected-error @+1 {{warpsPerCTA[1] = 3 is not a power of two}}
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 3], instrShape = [16, 8]}>

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// expected-error @+1 {{operand B of a version 3 #ttg.nvidia_mma is read from shared memory}}
#dot = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// expected-error @+1 {{kWidth must be a power of two up to 32, got 3}}
#dot = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 3}>

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{#ttg.dot_op with a #ttg.blocked parent takes no kWidth}}
#dot = #ttg.dot_op<{opIdx = 0, parent = #b, kWidth = 2}>

// -----

#s = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>
// expected-error @+1 {{kiln supports #ttg.dot_op only with a #ttg.nvidia_mma or #ttg.blocked parent}}
#dot = #ttg.dot_op<{opIdx = 0, parent = #s}>

// -----

// expected-error @+1 {{swizzlingByteWidth must be 0, 32, 64 or 128, got 16}}
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 16, transposed = false, elementBitWidth = 16}>

// -----

// expected-error @+1 {{'transposed' must be true or false, got 1}}
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = 1, elementBitWidth = 16}>

// -----

// expected-error @+1 {{fp4Padded needs elementBitWidth = 8}}
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, fp4Padded = true}>

// -----

// The layout must fit the module: 8 warps here, 4 in the module.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // expected-error @+1 {{spans 8 warps but "ttg.num-warps" is 4}}
  tt.func @f(%acc: tensor<128x128xf32, #mma>) {
    tt.return
  }
}

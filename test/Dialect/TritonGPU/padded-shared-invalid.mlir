// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{interval 12 and padding 4 must be powers of two}}
#s = #ttg.padded_shared<[12:+4] {order = [0], shape = [64]}>
module {
  tt.func private @f(!ttg.memdesc<64xf16, #s, #ttg.shared_memory>)
}

// -----

// expected-error @+1 {{interval 16 is given twice}}
#s = #ttg.padded_shared<[16:+4, 16:+8] {order = [0], shape = [64]}>
module {
  tt.func private @f(!ttg.memdesc<64xf16, #s, #ttg.shared_memory>)
}

// -----

// expected-error @+1 {{#ttg.padded_shared needs either 'offset' bases or 'order' and 'shape'}}
#s = #ttg.padded_shared<[16:+4] {offset = [[1]], order = [0], shape = [2]}>
module {
  tt.func private @f(!ttg.memdesc<2xf16, #s, #ttg.shared_memory>)
}

// -----

// expected-error @+1 {{#ttg.padded_shared needs 'order' to be a permutation and 'shape' powers of two}}
#s = #ttg.padded_shared<[16:+4] {order = [0, 0], shape = [4, 4]}>
module {
  tt.func private @f(!ttg.memdesc<4x4xf16, #s, #ttg.shared_memory>)
}

// -----

// expected-error @+1 {{#ttg.padded_shared: the offset bases must place each element of the tile at one offset}}
#s = #ttg.padded_shared<[16:+4] {offset = [[0, 1], [0, 1]], block = []}>
module {
  tt.func private @f(!ttg.memdesc<1x2xf16, #s, #ttg.shared_memory>)
}

// -----

// expected-error @+1 {{expected '+'}}
#s = #ttg.padded_shared<[16:4] {order = [0], shape = [64]}>
module {
  tt.func private @f(!ttg.memdesc<64xf16, #s, #ttg.shared_memory>)
}

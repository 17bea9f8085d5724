// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Two offsets hold the same element (and one element has none).
// expected-error @+1 {{#ttg.shared_linear: the offset bases must place each element of the tile at one offset}}
#s = #ttg.shared_linear<{offset = [[0, 1], [0, 1]]}, alignment = 16>
module {
  tt.func private @f(!ttg.memdesc<1x2xf16, #s, #ttg.shared_memory>)
}

// -----

// expected-error @+1 {{alignment = 24 is not a power of two}}
#s = #ttg.shared_linear<{offset = [[1]]}, alignment = 24>
module {
  tt.func private @f(!ttg.memdesc<2xf16, #s, #ttg.shared_memory>)
}

// -----

// expected-error @+1 {{#ttg.shared_linear needs 'offset'}}
#s = #ttg.shared_linear<{block = [[1]]}, alignment = 16>
module {
  tt.func private @f(!ttg.memdesc<2xf16, #s, #ttg.shared_memory>)
}

// -----

// expected-error @+1 {{every basis of 'block' must have one entry per dimension (2), got [1]}}
#s = #ttg.shared_linear<{offset = [[0, 1]], block = [[1]]}, alignment = 16>
module {
  tt.func private @f(!ttg.memdesc<1x2xf16, #s, #ttg.shared_memory>)
}

// -----

// expected-error @+1 {{unexpected key 'offsets' in #ttg.shared_linear}}
#s = #ttg.shared_linear<{offsets = [[1]]}, alignment = 16>
module {
  tt.func private @f(!ttg.memdesc<2xf16, #s, #ttg.shared_memory>)
}

// -----

// expected-error @+1 {{#ttg.shared_linear: a block basis moves by 1 along dimension 0, not by whole tiles of 2}}
#s = #ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = [[1, 0]]}, alignment = 16>
module {
  tt.func private @f(!ttg.memdesc<4x2xf16, #s, #ttg.shared_memory>)
}

// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Rejected forms of what Triton 3.7-3.9 print: the ops' semantics, types
// and operands, the cache-policy attribute and ttg.barrier's address spaces.

tt.func @load_release(%p: !tt.ptr<i32>) {
  // expected-error @+1 {{'tt.atomic_load' op semantic must be acquire or relaxed, got release}}
  %0 = tt.atomic_load release, gpu, %p : (!tt.ptr<i32>) -> i32
  tt.return
}

// -----

tt.func @load_bad_scope(%p: !tt.ptr<i32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'scope' [gpu, cta, sys]}}
  %0 = tt.atomic_load acquire, cluster, %p : (!tt.ptr<i32>) -> i32
  tt.return
}

// -----

tt.func @load_wrong_result(%p: !tt.ptr<i32>) {
  // expected-error @+1 {{'tt.atomic_load' op result type 'i64' is not the pointee type of '!tt.ptr<i32>'}}
  %0 = tt.atomic_load acquire, gpu, %p : (!tt.ptr<i32>) -> i64
  tt.return
}

// -----

tt.func @load_wrong_mask(%p: tensor<8x!tt.ptr<i32>>, %m: tensor<4xi1>) {
  // expected-error @+1 {{'tt.atomic_load' op requires the same shape for all operands and results}}
  %0 = tt.atomic_load acquire, gpu, %p, %m : (tensor<8x!tt.ptr<i32>>, tensor<4xi1>) -> tensor<8xi32>
  tt.return
}

// -----

tt.func @load_i1(%p: !tt.ptr<i1>) {
  // expected-error @+1 {{'tt.atomic_load' op needs integers or floats of 8 to 64 bits, got 'i1'}}
  %0 = tt.atomic_load relaxed, gpu, %p : (!tt.ptr<i1>) -> i1
  tt.return
}

// -----

tt.func @store_acquire(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'tt.atomic_store' op semantic must be release or relaxed, got acquire}}
  tt.atomic_store acquire, gpu, %p, %v : !tt.ptr<i32>
  tt.return
}

// -----

tt.func @store_acq_rel(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'tt.atomic_store' op semantic must be release or relaxed, got acq_rel}}
  tt.atomic_store acq_rel, sys, %p, %v : !tt.ptr<i32>
  tt.return
}

// -----

tt.func @poll_release(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'tt.atomic_poll' op semantic must be acquire or relaxed, got release}}
  %0 = tt.atomic_poll release, gpu, %p, %v : !tt.ptr<i32>, i32 -> i1
  tt.return
}

// -----

tt.func @poll_i8(%p: !tt.ptr<i8>, %v: i8) {
  // expected-error @+1 {{'tt.atomic_poll' op polls 16-, 32- or 64-bit integers, got 'i8'}}
  %0 = tt.atomic_poll acquire, gpu, %p, %v : !tt.ptr<i8>, i8 -> i1
  tt.return
}

// -----

tt.func @poll_float(%p: !tt.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tt.atomic_poll' op operand #1 must be}}
  %0 = tt.atomic_poll acquire, gpu, %p, %v : !tt.ptr<f32>, f32 -> i1
  tt.return
}

// -----

tt.func @poll_wrong_expected(%p: tensor<4x!tt.ptr<i32>>, %v: tensor<4xi64>) {
  // expected-error @+1 {{'tt.atomic_poll' op expected value type 'tensor<4xi64>' is not the pointee type of 'tensor<4x!tt.ptr<i32>>'}}
  %0 = tt.atomic_poll acquire, gpu, %p, %v : tensor<4x!tt.ptr<i32>>, tensor<4xi64> -> tensor<4xi1>
  tt.return
}

// -----

tt.func @poll_wrong_result(%p: tensor<4x!tt.ptr<i32>>, %v: tensor<4xi32>) {
  // expected-error @+1 {{'tt.atomic_poll' op result must be 'tensor<4xi1>', got 'i1'}}
  %0 = tt.atomic_poll acquire, gpu, %p, %v : tensor<4x!tt.ptr<i32>>, tensor<4xi32> -> i1
  tt.return
}

// -----

tt.func @poll_timeout_i32(%p: !tt.ptr<i32>, %v: i32) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%v' expects different type than prior uses: 'i64' vs 'i32'}}
  %0 = tt.atomic_poll acquire, gpu, %p, %v timeout %v : !tt.ptr<i32>, i32 -> i1
  tt.return
}

// -----

tt.func @approx_divf_f16(%x: f16) {
  // expected-error @+1 {{'tt.approx_divf' op operand #0 must be}}
  %0 = tt.approx_divf %x, %x : f16
  tt.return
}

// -----

tt.func @policy_not_a_policy(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{cachePolicy must be a #tt.cache_policy, got "cg"}}
  %0 = tt.load %p {cachePolicy = "cg"} : !tt.ptr<f32>
  tt.return
}

// -----

tt.func @policy_and_clause(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{cache hints given both as clauses and as cachePolicy}}
  %0 = tt.load %p cacheModifier = cg {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_normal>} : !tt.ptr<f32>
  tt.return
}

// -----

tt.func @policy_bad_modifier(%p: !tt.ptr<f32>) {
  // expected-error @+2 {{expected ::kiln::tt::CacheModifier to be one of: none, ca, cg, wb, cs, wt, cv}}
  // expected-error @+1 {{failed to parse TT_CachePolicyAttr parameter 'cacheModifier'}}
  %0 = tt.load %p {cachePolicy = #tt.cache_policy<cache_modifier = lu, eviction_policy = evict_normal>} : !tt.ptr<f32>
  tt.return
}

// -----

tt.func @clause_twice(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{the 'cache' clause is given twice}}
  %0 = tt.load %p cacheModifier = cg cacheModifier = ca : !tt.ptr<f32>
  tt.return
}

// -----

tt.func @clause_unknown(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'evict' [evict_normal, evict_first, evict_last]}}
  %0 = tt.load %p evictionPolicy = evict_sometimes : !tt.ptr<f32>
  tt.return
}

// -----

tt.func @load_not_a_pointer(%p: i32) {
  // expected-error @+1 {{'ptr' must be pointer to a scalar or statically shaped tensor of pointer to a scalar values or pointer to a tensor block, but got 'i32'}}
  %0 = tt.load %p : i32
  tt.return
}

// -----

tt.func @barrier_unknown() {
  // expected-error @+1 {{unknown barrier address space 'shared'}}
  ttg.barrier local|shared
  tt.return
}

// -----

tt.func @barrier_missing() {
  // The next op's name is taken for an address space.
  ttg.barrier
  // expected-error @+1 {{unknown barrier address space 'tt.return'}}
  tt.return
}

// -----

tt.func @barrier_bits() {
  // expected-error @+1 {{'ttg.barrier' op address-space bits 0x40 name no address space}}
  "ttg.barrier"() <{addrSpace = 64 : i32}> : () -> ()
  tt.return
}

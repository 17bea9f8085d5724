// RUN: kiln-opt %s --ttgir-coalesce --ttgir-remove-layout-conversions | FileCheck %s

// Triton 3.9's atomic load, store and poll in the ttgir stage: coalesced
// like the other global accesses (rows contiguous and 16-byte aligned: 4
// elements per thread along them), the load's and the poll's layouts kept as
// anchors, and their results converted only where a user needs another.

// CHECK-DAG: #[[IN:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK-DAG: #[[CO:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#in = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @sync
  tt.func public @sync(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<i32> {tt.divisibility = 16 : i32}) -> tensor<32x32xi1, #in> {
    %rows = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #in}>>
    %cols = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #in}>>
    %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #in}>> -> tensor<32x1xi32, #in>
    %c = tt.expand_dims %cols {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #in}>> -> tensor<1x32xi32, #in>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #in>
    %rs = arith.muli %r, %c32 : tensor<32x1xi32, #in>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #in> -> tensor<32x32xi32, #in>
    %cb = tt.broadcast %c : tensor<1x32xi32, #in> -> tensor<32x32xi32, #in>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #in>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #in>
    %pp = tt.addptr %ps, %off : tensor<32x32x!tt.ptr<i32>, #in>, tensor<32x32xi32, #in>
    %qs = tt.splat %q : !tt.ptr<i32> -> tensor<32x32x!tt.ptr<i32>, #in>
    %qp = tt.addptr %qs, %off : tensor<32x32x!tt.ptr<i32>, #in>, tensor<32x32xi32, #in>
    // CHECK: tt.atomic_load acquire, gpu, %{{.*}} : (tensor<32x32x!tt.ptr<i32>, #[[CO]]>) -> tensor<32x32xi32, #[[CO]]>
    %v = tt.atomic_load acquire, gpu, %pp : (tensor<32x32x!tt.ptr<i32>, #in>) -> tensor<32x32xi32, #in>
    // CHECK: tt.atomic_store release, gpu, %{{.*}}, %{{.*}} : tensor<32x32x!tt.ptr<i32>, #[[CO]]>
    tt.atomic_store release, gpu, %qp, %v : tensor<32x32x!tt.ptr<i32>, #in>
    // CHECK: %[[SEEN:.*]] = tt.atomic_poll acquire, gpu, %{{.*}}, %{{.*}} : tensor<32x32x!tt.ptr<i32>, #[[CO]]>, tensor<32x32xi32, #[[CO]]> -> tensor<32x32xi1, #[[CO]]>
    %seen = tt.atomic_poll acquire, gpu, %qp, %v : tensor<32x32x!tt.ptr<i32>, #in>, tensor<32x32xi32, #in> -> tensor<32x32xi1, #in>
    // The function returns its declared layout: one conversion of the poll's result.
    // CHECK: %[[OUT:.*]] = ttg.convert_layout %[[SEEN]] : tensor<32x32xi1, #[[CO]]> -> tensor<32x32xi1, #[[IN]]>
    // CHECK: tt.return %[[OUT]]
    tt.return %seen : tensor<32x32xi1, #in>
  }
}

// Plugin ops called from Triton kernels reach kiln as tt.extern_elementwise
// of library "kiln" (kiln.language encodes them so); the ttir stage expands
// each with the op's builder. Without the plugin, or when the kernel's
// result type is not what the builder makes, the call's location is named.
// RUN: kiln compile %s --target cuda:90 --stage ttir --plugin %kiln_plugins/libmathx.so -o - | FileCheck %s
// RUN: not kiln compile %s --target cuda:90 --stage ttir -o - 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// RUN: sed -e 's/(tensor<128xf32>) -> tensor<128xf32> loc/(tensor<128xf32>) -> tensor<128xf16> loc/' -e 's/tt[.]store %z, %y :/%e = arith.extf %y : tensor<128xf16> to tensor<128xf32>\n    tt.store %z, %e :/' %s > %t.mlir
// RUN: not kiln compile %t.mlir --target cuda:90 --stage ttir --plugin %kiln_plugins/libmathx.so -o - 2>&1 | FileCheck %s --check-prefix=TYPE

// CHECK-LABEL: tt.func public @softplus
// CHECK-NOT: tt.extern_elementwise
// CHECK: arith.maxnumf
// CHECK: math.log1p
// CHECK: tt.store
// NOPLUGIN: k.py:7:12: error: unknown kernel op 'mathx.softplus'; no plugin op is loaded
// NOPLUGIN: pass 'ttir.expand-kernel-ops' (core) failed in stage 'ttir'
// TYPE: k.py:7:12: error: kernel op 'mathx.softplus' built a 'tensor<128xf32>' where the kernel expects 'tensor<128xf16>'
module {
  tt.func public @softplus(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %q = tt.addptr %p, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %v = tt.load %q : tensor<128x!tt.ptr<f32>>
    %y = tt.extern_elementwise %v {libname = "kiln", libpath = "", pure = true, symbol = "mathx.softplus"} : (tensor<128xf32>) -> tensor<128xf32> loc("k.py":7:12)
    %w = tt.splat %o : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %z = tt.addptr %w, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %z, %y : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}

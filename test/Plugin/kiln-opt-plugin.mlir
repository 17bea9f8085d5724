// kiln-opt loads plugins before parsing its command line, so a plugin's
// passes can be named like any other, with options.
// RUN: kiln-opt --plugin %kiln_plugins/libannotate.so --annotate-kernel-info=num-warps=8 %s | FileCheck %s
// RUN: kiln-opt --plugin=%kiln_plugins/libannotate.so --pass-pipeline='builtin.module(annotate-kernel-info)' %s | FileCheck %s --check-prefix=DEFAULT
// RUN: env TRITON_PLUGIN_PATHS=%kiln_plugins/libannotate.so kiln-opt --annotate-kernel-info %s | FileCheck %s --check-prefix=DEFAULT
// RUN: not kiln-opt --annotate-kernel-info %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// CHECK-LABEL: tt.func public @copy
// CHECK-SAME: annotate.loads = 1 : i32, annotate.num_warps = 8 : i32, annotate.stores = 1 : i32
// DEFAULT: annotate.num_warps = 4 : i32
// NOPLUGIN: Unknown command line argument '--annotate-kernel-info'
tt.func public @copy(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>) {
  %v = tt.load %src : !tt.ptr<f32>
  tt.store %dst, %v : !tt.ptr<f32>
  tt.return
}

//===- TritonPluginApi2.cpp - a valid, empty plugin of Triton 3.7/3.8 -----===//
//
// What Triton 3.7 and 3.8 load from TRITON_PLUGIN_PATHS: Triton's entry
// point alone, returning a plugin API 2 record of the calling release. The
// tests list it beside kiln plugins: Triton loads it, kiln skips it.
//
//===----------------------------------------------------------------------===//
#include "kiln/Plugin/TritonEntryPoint.h"

extern "C" __attribute__((visibility("default"))) const void *tritonGetPluginInfo() {
  KILN_TRITON_PLUGIN_RECORD("triton-only", "0.1")
}

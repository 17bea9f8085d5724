//===- TritonPlugin.cpp - a plugin for Triton itself, not for kiln --------===//
//
// Exports Triton's entry point only and, like Triton's C++ plugins, needs a
// symbol only libtriton provides: kiln must recognise it without loading it.
//
//===----------------------------------------------------------------------===//

extern "C" void tritonTestHostOnly(); // defined by the host Triton, never here

namespace {
struct TritonInfo {
  unsigned apiVersion;
  const char *version;
};
const TritonInfo info = {1, "0.1"};
} // namespace

extern "C" __attribute__((visibility("default"))) const void *tritonGetPluginInfo() {
  tritonTestHostOnly();
  return &info;
}

//===- TestPluginInfo.cpp - the PluginInfo of one test plugin -------------===//
//
// Built once per variant with -DPLUGIN_NAME=..., -DEXTEND=..., and optional
// -DPASSES/-DDIALECTS/-DOPS hooks and -DDEFECT_<kind> (see CMakeLists.txt).
//
//===----------------------------------------------------------------------===//
#include "TestPluginHooks.h"

#include <cstdint>

#if defined(DEFECT_wild_callback)
// Writable data, never executable: a callback pointing here must not be called.
static char notCode[16];
#define DIALECTS reinterpret_cast<void (*)(mlir::DialectRegistry &)>(static_cast<void *>(notCode))
#endif

#ifndef EXTEND
#define EXTEND nullptr
#endif
#ifndef PASSES
#define PASSES nullptr
#endif
#ifndef DIALECTS
#define DIALECTS nullptr
#endif
#ifndef OPS
#define OPS nullptr
#endif

#if defined(DEFECT_null_name)
#define NAME nullptr
#elif defined(DEFECT_bad_name)
#define NAME "Bad Name!"
#elif defined(DEFECT_wild_name)
#define NAME reinterpret_cast<const char *>(uintptr_t{16})
#else
#define NAME PLUGIN_NAME
#endif

#if defined(DEFECT_null_version)
#define VERSION nullptr
#else
#define VERSION "0.1"
#endif

#if defined(DEFECT_abi_mismatch)
#define HOST_ABI "kiln 0.0.1; LLVM 17.0.6; libstdc++ cxx11-abi=1"
#else
#define HOST_ABI KILN_HOST_ABI
#endif

#if defined(DEFECT_wrong_major)
#define MAJOR 2
#else
#define MAJOR kiln::kPluginApiMajor
#endif

#if defined(DEFECT_tiny_struct)
#define SIZE 4
#elif defined(DEFECT_short_struct)
#define SIZE offsetof(kiln::PluginInfo, hostAbi)
#elif defined(DEFECT_huge_struct)
#define SIZE 0xfffffff0u
#elif defined(DEFECT_overrun_struct)
// Within the bound, but more than the plugin's whole data segment.
#define SIZE 4096
#elif defined(DEFECT_header_only)
// Declares the 1.0 header and no callbacks: the host must ignore the
// callback fields the struct does not cover.
#define SIZE kiln::kPluginInfoMinSize
#else
#define SIZE sizeof(kiln::PluginInfo)
#endif

namespace {
const kiln::PluginInfo info = {SIZE,     MAJOR,  kiln::kPluginApiMinor, NAME, VERSION,
                               HOST_ABI, DIALECTS, PASSES,              EXTEND, OPS};
} // namespace

#if defined(DEFECT_no_entry)
extern "C" __attribute__((visibility("default"))) int notTheEntryPoint() { return 0; }
#elif defined(DEFECT_null_info)
extern "C" __attribute__((visibility("default"))) const kiln::PluginInfo *kilnGetPluginInfo() {
  return nullptr;
}
#elif defined(DEFECT_wild_info)
// An address no library is mapped at.
extern "C" __attribute__((visibility("default"))) const kiln::PluginInfo *kilnGetPluginInfo() {
  return reinterpret_cast<const kiln::PluginInfo *>(uintptr_t{0xdead0000});
}
#elif defined(DEFECT_data_entry)
// The entry point's name on a pointer, not a function: calling it would
// execute data.
extern "C" __attribute__((visibility("default")))
const kiln::PluginInfo *const kilnGetPluginInfo = &info;
#else
KILN_PLUGIN(info)
#endif

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

// API 1.1's hooks, each with its defects.
#if defined(DEFECT_null_lowering) || defined(DEFECT_unknown_lowering_kind)
#include "kiln/Plugin/LoweringRegistrar.h"
namespace {
struct NoLowering final : kiln::LoweringExtension {
  bool lowers(mlir::Operation *, const kiln::lowering::Context &) const override { return false; }
  void populatePatterns(kiln::lowering::TypeConverter &, const kiln::lowering::Context &,
                        mlir::RewritePatternSet &) const override {}
};
} // namespace
static void badLowering(kiln::LoweringRegistrar &registrar) {
#if defined(DEFECT_null_lowering)
  registrar.add("cuda", nullptr);
#else
  registrar.add("metal", std::make_shared<NoLowering>());
#endif
}
#define LOWERING &badLowering
#else
#define LOWERING nullptr
#endif

#if defined(DEFECT_bad_option_key)
static const kiln::PluginOption options[] = {{"Bad Key", "1", ""}};
#define OPTIONS options, 1
#elif defined(DEFECT_duplicate_option)
static const kiln::PluginOption options[] = {{"level", "1", ""}, {"level", "2", ""}};
#define OPTIONS options, 2
#elif defined(DEFECT_null_option_default)
static const kiln::PluginOption options[] = {{"level", nullptr, ""}};
#define OPTIONS options, 1
#elif defined(DEFECT_options_without_array)
#define OPTIONS nullptr, 3
#elif defined(DEFECT_bad_codegen_flag)
static const kiln::PluginOption options[] = {{"level", "1", "a level"}};
#define OPTIONS options, 1
#else
#define OPTIONS nullptr, 0
#endif

#if defined(DEFECT_bad_codegen_flag)
static void badFlags(const kiln::CompileOptions &, kiln::CodegenFlags &flags) {
  flags.ptxas.push_back("-o");
}
#define CODEGEN &badFlags
#elif defined(LLVM_FLAGS) || defined(DEFECT_unknown_llvm_option)
#include "kiln/Base/Options.h"
// Well-formed: an LLVM option of the NVPTX code generator for cuda targets
// (or, as a defect, one LLVM does not have).
static void llvmFlags(const kiln::CompileOptions &options, kiln::CodegenFlags &flags) {
#if defined(DEFECT_unknown_llvm_option)
  flags.llvm.push_back("-kiln-test-no-such-option");
#else
  if (options.target.kind == "cuda")
    flags.llvm.push_back("-disable-lsr");
#endif
}
#define CODEGEN &llvmFlags
#else
#define CODEGEN nullptr
#endif

namespace {
const kiln::PluginInfo info = {SIZE,     MAJOR,    kiln::kPluginApiMinor, NAME, VERSION,
                               HOST_ABI, DIALECTS, PASSES,                EXTEND, OPS,
                               LOWERING, OPTIONS,  CODEGEN};
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

//===- SanitizerOptions.cpp - AddressSanitizer defaults of the fuzzers ----===//
//
// LLVM's BumpPtrAllocator poisons the unused part of its slabs when it is
// compiled with ASan, and unpoisons what it hands out. kiln's code is
// compiled with ASan but libMLIR.so is not, and both allocate from MLIR's
// shared storage allocators: memory that the library's copy of the
// allocator hands out stays poisoned, and ASan reports a use-after-poison
// on correct code. Manual poisoning is therefore off.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() { return "allow_user_poisoning=0"; }

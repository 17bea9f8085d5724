//===- KernelMetadata.cpp - Triton's kernel metadata JSON -----------------===//
#include "kiln/Backend/NVIDIA/Runtime/KernelMetadata.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace kiln::runtime {
namespace {

llvm::Error error(const llvm::Twine &msg) { return llvm::createStringError(msg.str()); }

} // namespace

llvm::Expected<KernelMetadata> parseKernelMetadata(llvm::StringRef text, llvm::StringRef where) {
  llvm::Expected<KernelMetadata> m = KernelMetadata::fromJSON(text, where);
  if (!m)
    return m.takeError();
  if (m->name.empty())
    return error(where + ": missing \"name\" (the kernel's entry point)");
  if (m->numCtas > 16 || !llvm::isPowerOf2_32(unsigned(m->numCtas)))
    return error(where + ": \"num_ctas\" is " + llvm::Twine(m->numCtas) +
                 ": clusters of 1, 2, 4, 8 or 16 CTAs can be launched");
  return m;
}

llvm::Expected<KernelMetadata> loadKernelMetadata(llvm::StringRef path) {
  auto mb = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!mb)
    return error("cannot read kernel metadata '" + path + "': " + mb.getError().message());
  return parseKernelMetadata((*mb)->getBuffer(), path);
}

llvm::Expected<CompiledKernel> loadCompiledKernel(llvm::StringRef cubinPath,
                                                  llvm::StringRef metadataPath) {
  auto mb = llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false);
  if (!mb)
    return error("cannot read cubin '" + cubinPath + "': " + mb.getError().message());
  llvm::SmallString<256> meta(metadataPath);
  if (meta.empty()) {
    meta = cubinPath;
    llvm::sys::path::replace_extension(meta, "json");
  }
  auto metadata = loadKernelMetadata(meta);
  if (!metadata)
    return metadata.takeError();
  return CompiledKernel{(*mb)->getBuffer().str(), std::move(*metadata)};
}

} // namespace kiln::runtime

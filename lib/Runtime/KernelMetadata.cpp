//===- KernelMetadata.cpp - Triton's kernel metadata JSON -----------------===//
#include "kiln/Runtime/KernelMetadata.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace json = llvm::json;

namespace kiln::runtime {
namespace {

llvm::Error error(const llvm::Twine &msg) { return llvm::createStringError(msg.str()); }

} // namespace

llvm::Expected<KernelMetadata> parseKernelMetadata(llvm::StringRef text, llvm::StringRef where) {
  llvm::Expected<json::Value> root = json::parse(text);
  if (!root)
    return error(where + ": malformed JSON: " + llvm::toString(root.takeError()));
  const json::Object *o = root->getAsObject();
  if (!o)
    return error(where + ": kernel metadata must be a JSON object");
  KernelMetadata m;
  std::optional<llvm::StringRef> name = o->getString("name");
  if (!name || name->empty())
    return error(where + ": missing \"name\" (the kernel's entry point)");
  m.name = name->str();

  // Each integer field: present means a non-negative integer within `max`.
  auto integer = [&](const char *key, int64_t &field, int64_t min, int64_t max) -> llvm::Error {
    const json::Value *v = o->get(key);
    if (!v)
      return llvm::Error::success();
    std::optional<int64_t> i = v->getAsInteger();
    if (!i || *i < min || *i > max)
      return error(where + ": \"" + key + "\" must be an integer from " + llvm::Twine(min) +
                   " to " + llvm::Twine(max));
    field = *i;
    return llvm::Error::success();
  };
  int64_t numWarps = m.numWarps, numCtas = m.numCtas;
  // A block has at most 1024 threads; scratch is bounded so that its total
  // over a grid cannot overflow 64 bits.
  constexpr int64_t kMaxScratch = int64_t(1) << 32;
  if (llvm::Error e = integer("num_warps", numWarps, 1, 32))
    return std::move(e);
  if (llvm::Error e = integer("num_ctas", numCtas, 1, 16))
    return std::move(e);
  if (llvm::Error e = integer("shared", m.shared, 0, int64_t(1) << 31))
    return std::move(e);
  if (llvm::Error e = integer("global_scratch_size", m.globalScratchSize, 0, kMaxScratch))
    return std::move(e);
  if (llvm::Error e = integer("global_scratch_align", m.globalScratchAlign, 1, 4096))
    return std::move(e);
  if (llvm::Error e = integer("profile_scratch_size", m.profileScratchSize, 0, kMaxScratch))
    return std::move(e);
  if (llvm::Error e = integer("profile_scratch_align", m.profileScratchAlign, 1, 4096))
    return std::move(e);
  m.numWarps = int(numWarps);
  m.numCtas = int(numCtas);
  if (m.numCtas != 1)
    return error(where + ": \"num_ctas\" is " + llvm::Twine(m.numCtas) +
                 ": kiln launches single-CTA kernels only (no thread-block clusters yet)");
  if (const json::Value *descs = o->get("tensordesc_meta")) {
    const json::Array *list = descs->getAsArray();
    if (!list && descs->kind() != json::Value::Null)
      return error(where + ": \"tensordesc_meta\" must be a list");
    for (const json::Value &v : list ? *list : json::Array()) {
      const json::Object *d = v.getAsObject();
      auto field = [&](const char *key) -> std::optional<int64_t> {
        return d ? d->getInteger(key) : std::nullopt;
      };
      const json::Array *block = d ? d->getArray("block_size") : nullptr;
      std::optional<int64_t> swizzle = field("swizzle"), size = field("elem_size"),
                             type = field("elem_type");
      if (!swizzle || !size || !type || !block)
        return error(where + ": each \"tensordesc_meta\" entry needs integer \"swizzle\", "
                             "\"elem_size\", \"elem_type\" and a \"block_size\" list");
      TensorDescMeta meta;
      meta.swizzle = int(*swizzle);
      meta.elemSize = int(*size);
      meta.elemType = int(*type);
      meta.fp4Padded = d->getBoolean("fp4_padded").value_or(false);
      for (const json::Value &b : *block) {
        std::optional<int64_t> n = b.getAsInteger();
        if (!n)
          return error(where + ": \"block_size\" must list integers");
        meta.blockSize.push_back(*n);
      }
      m.tensorDescs.push_back(std::move(meta));
    }
  }
  if (const json::Object *t = o->getObject("target"))
    if (std::optional<int64_t> arch = t->getInteger("arch"))
      m.arch = int(*arch);
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

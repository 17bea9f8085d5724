//===- TensorMap.cpp - CUtensorMaps for tensor descriptor arguments -------===//
#include "kiln/Backend/NVIDIA/Runtime/TensorMap.h"

#include "llvm/ADT/Twine.h"

namespace kiln::runtime {
namespace {

llvm::Error error(const llvm::Twine &msg) { return llvm::createStringError(msg.str()); }

} // namespace

int hostTensorMapDataType(int deviceType) {
  // The two numberings differ only in where f64, bf16 and f32-ftz sit.
  switch (deviceType) {
  case 8:
    return 10;
  case 9:
    return 8;
  case 10:
    return 9;
  default:
    return deviceType;
  }
}

llvm::Expected<TensorMapRequest> planTensorMap(const interp::ArgSpec &arg,
                                               const TensorDescMeta &meta, uint64_t address) {
  auto fail = [&](const llvm::Twine &why) {
    return error("argument '" + arg.name + "': " + why);
  };
  size_t rank = arg.shape.size();
  if (rank < 1 || rank > 5)
    return fail("TMA addresses tensors of 1 to 5 dimensions, not " + llvm::Twine(rank));
  if (meta.blockSize.size() != rank)
    return fail("the kernel's TMA box has " + llvm::Twine(meta.blockSize.size()) +
                " dimensions but the tensor has " + llvm::Twine(rank));
  unsigned elemBytes = interp::byteSize(arg.dtype);
  if (int(elemBytes) != meta.elemSize)
    return fail("the kernel reads " + llvm::Twine(meta.elemSize) + "-byte elements but the "
                "argument's dtype has " + llvm::Twine(elemBytes));
  if (meta.swizzle < 0 || meta.swizzle > 3)
    return fail("tensordesc_meta swizzle " + llvm::Twine(meta.swizzle) + " is not 0..3");
  if (!arg.block.empty() && arg.block.size() == rank)
    for (size_t d = 0; d < rank; ++d)
      if (arg.block[d] % meta.blockSize[d] != 0)
        return fail("the block's dimension " + llvm::Twine(d) + " (" +
                    llvm::Twine(arg.block[d]) + ") is not a multiple of the kernel's TMA box (" +
                    llvm::Twine(meta.blockSize[d]) + ")");
  if (address % 16)
    return fail("TMA needs a 16-byte aligned tensor");

  TensorMapRequest r;
  r.rank = unsigned(rank);
  r.address = address;
  r.dataType = hostTensorMapDataType(meta.elemType);
  r.swizzle = meta.swizzle;
  // TMA numbers dimensions innermost first; the row-major tensor's stride
  // of dimension d is the product of the dimensions inside it.
  uint64_t stride = elemBytes;
  for (size_t i = 0; i < rank; ++i) {
    size_t d = rank - 1 - i;
    int64_t dim = arg.shape[d];
    if (meta.fp4Padded && i == 0)
      dim *= 2; // two fp4 per byte: the map counts the unpacked elements
    if (arg.shape[d] < 1 || uint64_t(dim) > (uint64_t(1) << 32))
      return fail("dimension " + llvm::Twine(d) + " (" + llvm::Twine(arg.shape[d]) +
                  ") is outside TMA's 1..2^32");
    int64_t box = meta.blockSize[d];
    if (box < 1 || box > 256)
      return fail("the kernel's TMA box dimension " + llvm::Twine(d) + " (" + llvm::Twine(box) +
                  ") is outside 1..256");
    r.globalDim[i] = uint64_t(dim);
    r.boxDim[i] = uint32_t(box);
    if (i > 0) {
      if (stride % 16)
        return fail("TMA needs 16-byte multiples as strides; dimension " + llvm::Twine(d) +
                    " has a stride of " + llvm::Twine(stride) + " bytes");
      r.globalStrides[i - 1] = stride;
    }
    stride *= uint64_t(arg.shape[d]);
  }
  uint64_t rowBytes = uint64_t(r.boxDim[0]) * elemBytes;
  if (rowBytes % 16)
    return fail("the TMA box's rows are " + llvm::Twine(rowBytes) +
                " bytes, not a multiple of 16");
  if (meta.swizzle && rowBytes > (16u << meta.swizzle))
    return fail("the TMA box's rows (" + llvm::Twine(rowBytes) + " bytes) exceed the " +
                llvm::Twine(16u << meta.swizzle) + "-byte swizzle");
  return r;
}

} // namespace kiln::runtime

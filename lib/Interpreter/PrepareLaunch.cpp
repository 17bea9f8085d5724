//===- PrepareLaunch.cpp - a run spec's arguments for a tt.func -----------===//
//
// Checks a run spec against the kernel's signature and builds the
// interpreter's arguments. Apart from RunSpec.cpp, which needs no MLIR.
//
//===----------------------------------------------------------------------===//
#include "kiln/RunSpec/RunSpec.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace kiln::interp {
namespace {

llvm::Error error(const llvm::Twine &msg) { return llvm::createStringError(msg.str()); }

std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

bool compatibleElements(ElemKind buffer, ElemKind pointee) {
  if (buffer == pointee)
    return true;
  // Triton passes bool tensors as i8 pointers.
  return (buffer == ElemKind::I1 && pointee == ElemKind::I8) ||
         (buffer == ElemKind::I8 && pointee == ElemKind::I1);
}

} // namespace

llvm::Expected<Launch> prepareLaunch(const RunSpec &spec, ModuleOp module,
                                     uint64_t memoryLimit) {
  Launch launch;
  kiln::tt::FuncOp func;
  if (!spec.kernel.empty()) {
    func = module.lookupSymbol<kiln::tt::FuncOp>(spec.kernel);
    if (!func)
      return error("the kernel file has no tt.func named '" + spec.kernel + "'");
  } else {
    for (auto f : module.getOps<kiln::tt::FuncOp>())
      if (f.isPublic()) {
        if (func)
          return error("the kernel file has several public tt.funcs; name one with \"kernel\"");
        func = f;
      }
    if (!func)
      return error("the kernel file has no public tt.func");
  }
  launch.kernel = func.getSymName().str();
  llvm::ArrayRef<Type> types = func.getArgumentTypes();
  auto signature = [&] {
    std::string s = "(";
    for (size_t i = 0; i < types.size(); ++i)
      s += (i ? ", " : "") + typeString(types[i]);
    return s + ")";
  };
  auto countError = [&](size_t given) {
    return error("the run spec gives " + llvm::Twine(given) + " kernel arguments but @" +
                 launch.kernel + " takes " + llvm::Twine(types.size()) + ": " + signature());
  };

  // First every argument is matched against the signature, allocating
  // nothing, so that a spec that does not fit the kernel fails before any
  // buffer (of whatever size) exists. `firstType[s]` is the tt.func argument
  // of spec argument s; `expands[s]` says whether a descriptor is followed by
  // its shape and strides.
  std::vector<size_t> firstType(spec.args.size());
  std::vector<bool> expands(spec.args.size());
  size_t ai = 0;
  for (size_t s = 0; s < spec.args.size(); ++s) {
    const ArgSpec &a = spec.args[s];
    std::string where = "argument '" + a.name + "' (kernel argument " + std::to_string(ai) + ")";
    if (ai >= types.size()) {
      size_t given = ai;
      for (const ArgSpec &rest : llvm::ArrayRef(spec.args).drop_front(s))
        given += rest.kind == ArgKind::TensorDescriptor ? 1 + 2 * rest.shape.size() : 1;
      return countError(given);
    }
    firstType[s] = ai;
    Type t = types[ai++];
    if (a.kind == ArgKind::Scalar) {
      std::optional<ElemKind> k = kindOfType(t);
      if (!k || *k == ElemKind::Ptr || isa<kiln::tt::PointerType>(t))
        return error(where + ": the run spec passes a scalar but the kernel expects " +
                     typeString(t));
      if (*k != a.dtype)
        return error(where + ": the run spec passes " + kindName(a.dtype) +
                     " but the kernel expects " + typeString(t));
    } else if (a.kind == ArgKind::Buffer) {
      auto ptr = dyn_cast<kiln::tt::PointerType>(t);
      std::optional<ElemKind> pk = ptr ? kindOfType(ptr.getPointeeType()) : std::nullopt;
      if (!ptr || !pk)
        return error(where + ": the run spec passes a buffer but the kernel expects " +
                     typeString(t));
      if (!compatibleElements(a.dtype, *pk))
        return error(where + ": the buffer holds " + kindName(a.dtype) +
                     " but the kernel expects " + typeString(t));
    } else {
      auto descType = dyn_cast<kiln::tt::TensorDescType>(t);
      if (!descType)
        return error(where + ": the run spec passes a tensor descriptor but the kernel expects " +
                     typeString(t));
      RankedTensorType blockType = descType.getBlockType();
      if (kindOfType(blockType.getElementType()) != a.dtype)
        return error(where + ": the descriptor holds " + kindName(a.dtype) +
                     " but the kernel expects " + typeString(t));
      if (!a.block.empty() && llvm::ArrayRef<int64_t>(a.block) != blockType.getShape())
        return error(where + ": the run spec's block shape differs from the kernel's " +
                     typeString(t));
      // Triton's host descriptors add the shape as i32s and the strides as
      // i64s to the signature.
      size_t rank = a.shape.size();
      bool expanded = ai + 2 * rank <= types.size();
      for (size_t i = 0; expanded && i < rank; ++i)
        expanded = types[ai + i].isInteger(32) && types[ai + rank + i].isInteger(64);
      if (expanded) {
        for (int64_t d : a.shape)
          if (d > INT32_MAX)
            return error(where + ": the descriptor's size " + llvm::Twine(d) +
                         " does not fit the kernel's i32 shape argument");
        ai += 2 * rank;
      }
      expands[s] = expanded;
    }
  }
  if (ai != types.size())
    return countError(ai);

  llvm::Expected<Launch> buffers = prepareBuffers(spec, memoryLimit);
  if (!buffers)
    return buffers.takeError();
  buffers->kernel = std::move(launch.kernel);
  launch = std::move(*buffers);

  for (size_t s = 0; s < spec.args.size(); ++s) {
    const ArgSpec &a = spec.args[s];
    if (a.kind == ArgKind::Scalar) {
      launch.args.push_back(isIntKind(a.dtype) ? Tensor::scalarInt(a.dtype, a.intValue)
                                                : Tensor::scalarFloat(a.dtype, a.floatValue));
      continue;
    }
    uint64_t addr = launch.memory.address(launch.bufferOfArg[s]);
    if (a.kind == ArgKind::Buffer) {
      launch.args.push_back(Tensor::scalarPtr(addr));
      continue;
    }
    auto blockType = cast<kiln::tt::TensorDescType>(types[firstType[s]]).getBlockType();
    size_t rank = a.shape.size();
    TensorDesc d;
    d.base = addr;
    d.elem = a.dtype;
    d.shape = a.shape;
    d.block.assign(blockType.getShape().begin(), blockType.getShape().end());
    d.strides.assign(rank, 1);
    for (int i = int(rank) - 2; i >= 0; --i)
      d.strides[i] = d.strides[i + 1] * a.shape[i + 1];
    launch.args.push_back(d);
    if (expands[s]) {
      for (size_t i = 0; i < rank; ++i)
        launch.args.push_back(Tensor::scalarInt(ElemKind::I32, a.shape[i]));
      for (size_t i = 0; i < rank; ++i)
        launch.args.push_back(Tensor::scalarInt(ElemKind::I64, d.strides[i]));
    }
  }
  return launch;
}

} // namespace kiln::interp

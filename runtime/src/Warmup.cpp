//===- Warmup.cpp - LoadOptions::warmup: one call of each entry at load ---===//
//
// A first call pays for what nothing before it touched: on a GPU, the
// memory pool grows to hold the call's buffers and cuBLAS and cuDNN load
// the kernels of each new shape (tens to hundreds of milliseconds); on a
// CPU, oneDNN builds its primitives. An app that knows the shapes it will
// serve can pay that at load instead, as a server warms a model up before
// taking requests: every entry point runs once on zeros of those shapes.
//
//===----------------------------------------------------------------------===//

#include "Warmup.h"

#include "ModelImpl.h"

namespace kiln {

namespace {

/// The input `arg` of a warm-up call, or the reason there is none.
Result<Tensor> zeroInput(const ValueInfo &arg,
                         const std::map<std::string, int64_t> &dims,
                         Device device) {
  if (arg.hasDefault())
    return arg.defaultValue;
  if (arg.optional)
    return Tensor::none();
  std::vector<int64_t> shape;
  for (const DimInfo &dim : arg.dims) {
    if (dim.symbol.empty()) {
      shape.push_back(dim.size);
      continue;
    }
    auto size = dims.find(dim.symbol);
    if (size == dims.end())
      return Error{"input " + inQuotes(arg.name) + " has dim " +
                       inQuotes(dim.symbol) +
                       ", whose size LoadOptions::warmupDims does not give",
                   ErrorKind::InvalidArgument};
    if (size->second < 0)
      return Error{"LoadOptions::warmupDims gives dim " +
                       inQuotes(dim.symbol) + " the size " +
                       std::to_string(size->second),
                   ErrorKind::InvalidArgument};
    shape.push_back(size->second);
  }
  uint64_t bytes;
  if (!checkedByteSize(shape, dtypeSize(arg.dtype), bytes))
    return Error{"input " + inQuotes(arg.name) + " of shape " +
                     shapeText(shape) + " would need more than 2^47 bytes",
                 ErrorKind::InvalidArgument};
  Tensor zeros = Tensor::zeros(arg.dtype, shape);
  // A rank-0 input (a Python number) stays on the host, as in any call.
  if (device == Device::CPU || shape.empty())
    return zeros;
  return copyTo(zeros, device);
}

} // namespace

Result<void> warmUp(const Model &model,
                    const std::map<std::string, int64_t> &dims) {
  for (const EntryInfo &entry : model.entries()) {
    auto failed = [&](const Error &error) {
      return Error{"warm-up call of entry point " + inQuotes(entry.name) +
                       ": " + error.message,
                   error.kind};
    };
    std::vector<Tensor> inputs;
    for (const ValueInfo &arg : entry.args) {
      Result<Tensor> input = zeroInput(arg, dims, model.device());
      if (!input)
        return failed(input.error());
      inputs.push_back(std::move(*input));
    }
    Result<std::vector<Tensor>> outputs = model.run(entry.name, inputs);
    if (!outputs)
      return failed(outputs.error());
  }
  return {};
}

} // namespace kiln

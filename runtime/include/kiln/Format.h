//===- kiln/Format.h - Text for tensors and Python scalars, as PyTorch ---===//
//
// print() inside a compiled script must write what PyTorch would write, so
// these follow torch._tensor_str (precision 4, line width 80, scientific
// and integer modes, summarization past 1000 elements) and Python's repr.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FORMAT_H
#define KILN_FORMAT_H

#include "kiln/Tensor.h"

#include <cstdint>
#include <string>

// The runtime is built with hidden visibility; its API is what this exports.
#pragma GCC visibility push(default)

namespace kiln {

/// `str(t)` for a torch.Tensor with t's dtype, shape and values, e.g.
/// "tensor([1.0000, 2.5000])" or "tensor([[1, 2],\n        [3, 4]])".
/// `device` CUDA adds PyTorch's ", device='cuda:0'" for a CUDA tensor's
/// values copied to the host.
std::string formatTensor(const Tensor &tensor, Device device = Device::CPU);
/// `str(x)` for a Python float: shortest round-trip digits, as repr().
std::string formatFloat(double value);
/// `str(x)` for a Python int and bool.
std::string formatInt(int64_t value);
std::string formatBool(bool value);

} // namespace kiln

#pragma GCC visibility pop

#endif // KILN_FORMAT_H

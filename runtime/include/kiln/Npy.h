//===- kiln/Npy.h - numpy .npy files --------------------------------------===//
//
// Reads and writes the .npy format (versions 1.0, 2.0 and 3.0), as
// numpy.save and numpy.load do, for the dtypes kiln supports. Fortran-order
// and big-endian arrays are read and converted to C order, native endian.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_NPY_H
#define KILN_NPY_H

#include "kiln/Result.h"
#include "kiln/Tensor.h"

#include <string>

// The runtime is built with hidden visibility; its API is what this exports.
#pragma GCC visibility push(default)

namespace kiln {

/// Every failure (I/O, malformed file, dtype kiln lacks) is an Error whose
/// message starts with `path`, e.g. "x.npy: truncated data: expected 400
/// bytes, found 12".
Result<Tensor> readNpy(const std::string &path);
/// Writes what numpy.save would write, byte for byte; bf16 is an Error since
/// numpy has no bfloat16 dtype.
Result<void> writeNpy(const std::string &path, const Tensor &tensor);

} // namespace kiln

#pragma GCC visibility pop

#endif // KILN_NPY_H

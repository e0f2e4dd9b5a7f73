//===- kiln/HalfFloat.h - f16 and bf16 bits to and from float -------------===//
//
// Tensors of dtype f16 and bf16 hold their elements as uint16_t bits. These
// convert them the way PyTorch does: float to either rounds to nearest,
// ties to even (torch's .half() and .bfloat16()), NaN stays a quiet NaN,
// and the widening to float is exact.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_HALFFLOAT_H
#define KILN_HALFFLOAT_H

#include <cstdint>

// The runtime is built with hidden visibility; its API is what this exports.
#pragma GCC visibility push(default)

namespace kiln {

uint16_t floatToHalf(float value);
uint16_t floatToBFloat16(float value);
float halfToFloat(uint16_t bits);
float bfloat16ToFloat(uint16_t bits);

} // namespace kiln

#pragma GCC visibility pop

#endif // KILN_HALFFLOAT_H

//===- HalfFloat.cpp - f16 and bf16 bits to and from float ----------------===//
//
// Plain integer arithmetic, so that the result is the same on every CPU,
// with or without F16C, and matches what compiled code does
// (codegen/cpu/ExpandHalfFloats.cpp) and what codegen/archive writes for
// weights.
//
//===----------------------------------------------------------------------===//
#include "kiln/HalfFloat.h"

#include <cstring>

namespace kiln {
namespace {

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

float bitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

} // namespace

uint16_t floatToBFloat16(float value) {
  uint32_t bits = floatBits(value);
  if ((bits & 0x7fffffff) > 0x7f800000)
    return uint16_t(bits >> 16 | 0x40); // a quiet NaN
  bits += 0x7fff + (bits >> 16 & 1);
  return uint16_t(bits >> 16);
}

uint16_t floatToHalf(float value) {
  uint32_t bits = floatBits(value);
  uint16_t sign = uint16_t(bits >> 16 & 0x8000);
  uint32_t abs = bits & 0x7fffffff;
  if (abs > 0x7f800000)
    return sign | 0x7e00; // a quiet NaN
  if (abs >= 0x477ff000)  // 65520 and up round to infinity
    return sign | 0x7c00;
  if (abs >= 0x38800000) // normal in half: rebias the exponent, round
    return sign | uint16_t((abs - 0x38000000 + 0xfff + (abs >> 13 & 1)) >> 13);
  if (abs < 0x33000000) // below 2^-25: rounds to zero
    return sign;
  // A half subnormal counts units of 2^-24.
  uint32_t exponent = abs >> 23;
  uint32_t mantissa = (abs & 0x7fffff) | 0x800000;
  uint32_t shift = 126 - exponent;
  uint32_t half = mantissa >> shift;
  uint32_t rest = mantissa & ((1u << shift) - 1);
  uint32_t midpoint = 1u << (shift - 1);
  if (rest > midpoint || (rest == midpoint && (half & 1)))
    ++half;
  return sign | uint16_t(half);
}

float halfToFloat(uint16_t half) {
  uint32_t sign = static_cast<uint32_t>(half & 0x8000) << 16;
  uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in f32.
    float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31)
    return bitsToFloat(sign | 0x7f800000u | (mantissa << 13));
  return bitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

float bfloat16ToFloat(uint16_t value) {
  return bitsToFloat(static_cast<uint32_t>(value) << 16);
}

} // namespace kiln

//===- ConvShape.cpp - What a conv2d call's shapes must be ----------------===//

#include "ConvShape.h"

#include "ModelImpl.h"

namespace kiln {

using Dims = std::vector<int64_t>;

int64_t convOutSize(int64_t in, int64_t kernel, int64_t stride, int64_t pad,
                    int64_t dilation) {
  int64_t padded, reach, span;
  if (__builtin_mul_overflow(pad, 2, &padded) ||
      __builtin_add_overflow(in, padded, &padded) ||
      __builtin_mul_overflow(dilation, kernel - 1, &reach) ||
      __builtin_sub_overflow(padded, reach, &span) ||
      __builtin_sub_overflow(span, 1, &span))
    return -1;
  return span < 0 ? -1 : span / stride + 1;
}

std::string checkConv2d(const Dims &in, const Dims &w, const Dims &out,
                        const ConvParams &p) {
  // Only on a failure: a call that fits allocates nothing here.
  auto shapes = [&] {
    return "input " + shapeText(in) + ", weight " + shapeText(w) +
           " and output " + shapeText(out);
  };
  if (in.size() != 4 || w.size() != 4 || out.size() != 4)
    return "conv2d: " + shapes() + " must all have rank 4";
  if (p.strideH < 1 || p.strideW < 1 || p.padH < 0 || p.padW < 0 ||
      p.dilationH < 1 || p.dilationW < 1 || p.groups < 1)
    return "conv2d: invalid stride (" + std::to_string(p.strideH) + ", " +
           std::to_string(p.strideW) + "), padding (" + std::to_string(p.padH) +
           ", " + std::to_string(p.padW) + "), dilation (" +
           std::to_string(p.dilationH) + ", " + std::to_string(p.dilationW) +
           ") or groups " + std::to_string(p.groups);
  int64_t channels;
  if (in[1] % p.groups != 0 || w[0] % p.groups != 0 ||
      __builtin_mul_overflow(w[1], p.groups, &channels) || channels != in[1])
    return "conv2d: weight " + shapeText(w) + " does not fit input " +
           shapeText(in) + " with groups=" + std::to_string(p.groups);
  int64_t oh = convOutSize(in[2], w[2], p.strideH, p.padH, p.dilationH);
  int64_t ow = convOutSize(in[3], w[3], p.strideW, p.padW, p.dilationW);
  if (oh < 0 || ow < 0)
    return "conv2d: the kernel of weight " + shapeText(w) +
           " is larger than the padded input " + shapeText(in);
  if (out[0] != in[0] || out[1] != w[0] || out[2] != oh || out[3] != ow)
    return "conv2d: " + shapes() + " do not fit: the output should be " +
           shapeText({in[0], w[0], oh, ow});
  return "";
}

} // namespace kiln

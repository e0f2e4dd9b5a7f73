//===- ConvShape.h - What a conv2d call's shapes must be (private) --------===//
//
// The one shape rule of the kernel library's conv2d slot, which both of its
// implementations (oneDNN on the CPU, cuDNN on the GPU) check before they
// run, so that a bad call is the same error on either device.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_CONVSHAPE_H
#define KILN_RUNTIME_CONVSHAPE_H

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

struct ConvParams {
  int64_t strideH, strideW, padH, padW, dilationH, dilationW, groups;
};

/// An output size as torch computes it; -1 when the dilated kernel does not
/// fit in the padded input, or when a parameter is so large that the sizes
/// wrap (the sizes are checked, the parameters are the script's).
int64_t convOutSize(int64_t in, int64_t kernel, int64_t stride, int64_t pad,
                    int64_t dilation);

/// "" if the shapes and parameters are a convolution torch computes, or
/// what is wrong with them. Exported for the CUDA plugin, whose cuDNN
/// conv2d checks the same rule.
__attribute__((visibility("default"))) std::string checkConv2d(const std::vector<int64_t> &in,
                        const std::vector<int64_t> &w,
                        const std::vector<int64_t> &out, const ConvParams &p);

} // namespace kiln

#endif // KILN_RUNTIME_CONVSHAPE_H

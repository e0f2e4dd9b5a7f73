//===- WindowSupport.h - Sliding-window sizes for pooling and conv2d ------===//
//
// Private to codegen/lowering. Pooling and convolution slide a window over
// the two spatial dims of an N x C x H x W input; both compute their output
// sizes as PyTorch's pooling_output_shape does, at run time where H or W is
// `?` (IntMath folds them to constants otherwise).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_LOWERING_WINDOWSUPPORT_H
#define KILN_CODEGEN_LOWERING_WINDOWSUPPORT_H

#include "codegen/lowering/IntMath.h"

#include "llvm/ADT/ArrayRef.h"

namespace kiln::codegen {

/// One spatial dim of a window: its attributes, as the kiln op holds them.
struct WindowDim {
  int64_t kernel, stride, padding, dilation;
  bool ceilMode;

  /// The padded input extent one window covers.
  int64_t span() const { return dilation * (kernel - 1) + 1; }

  /// The number of windows along a dim of `size` (i64) padded on both sides.
  /// With ceil_mode the count rounds up, but the last window must start
  /// inside the input or its left padding. Below 1 when the window does not
  /// fit, which the caller reports.
  mlir::Value outputSize(IntMath &m, mlir::Value size) const {
    // One op per statement: C++ leaves the order of evaluating arguments
    // unspecified, and the IR must not depend on the compiler.
    mlir::Value padded = m.add(size, m.i64(2 * padding));
    mlir::Value fits = m.sub(padded, m.i64(span()));
    mlir::Value rounded = m.add(fits, m.i64(ceilMode ? stride - 1 : 0));
    mlir::Value steps = m.floorDiv(rounded, m.i64(stride));
    mlir::Value out = m.add(steps, m.i64(1));
    if (!ceilMode)
      return out;
    mlir::Value lastIndex = m.sub(out, m.i64(1));
    mlir::Value lastStart = m.mul(lastIndex, m.i64(stride));
    mlir::Value inputEnd = m.add(size, m.i64(padding));
    mlir::Value outside = m.cmp(IntMath::Pred::sge, lastStart, inputEnd);
    mlir::Value fewer = m.sub(out, m.i64(1));
    return m.select(outside, fewer, out);
  }

  /// The padding after the input (the bottom or right) so that all `out`
  /// windows fit: `padding`, plus what ceil_mode's last window overhangs.
  mlir::Value highPadding(IntMath &m, mlir::Value size, mlir::Value out) const {
    mlir::Value lastIndex = m.sub(out, m.i64(1));
    mlir::Value lastStart = m.mul(lastIndex, m.i64(stride));
    mlir::Value needed = m.add(lastStart, m.i64(span()));
    mlir::Value padded = m.add(size, m.i64(2 * padding));
    mlir::Value excess = m.sub(needed, padded);
    mlir::Value overhang = m.max(excess, m.i64(0));
    return m.add(overhang, m.i64(padding));
  }
};

/// `input` (N x C x H x W) with H and W padded by `low` before and `high`
/// after (index values) with `value`: a filled tensor with the input
/// inserted. tensor.pad would say the same, but MLIR 19's bufferization of
/// a tensor.pad with dynamic sizes reads its own buffer's sizes before
/// allocating it.
mlir::Value padSpatial(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value input, llvm::ArrayRef<int64_t> low,
                       llvm::ArrayRef<mlir::Value> high, mlir::Value value);

} // namespace kiln::codegen

#endif // KILN_CODEGEN_LOWERING_WINDOWSUPPORT_H

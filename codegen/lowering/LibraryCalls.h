//===- LibraryCalls.h - Calls into the runtime's kernel library -----------===//
//
// Private to codegen/lowering. GEMM and convolution in f32 go to the kernel
// library behind kiln_host_api's matmul and conv2d slots (kiln/abi.h states
// their contracts), which outruns generated loops on them. The library
// computes in f32; f16 and bf16 tensors are converted to f32 around the
// call, as PyTorch's CPU kernels accumulate them in f32 too. Other element
// types keep their generated linalg lowering.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CODEGEN_LOWERING_LIBRARYCALLS_H
#define KILN_CODEGEN_LOWERING_LIBRARYCALLS_H

#include "codegen/lowering/LoweringSupport.h"

namespace kiln::codegen {

/// Whether an op on `element` tensors calls the kernel library.
bool usesKernelLibrary(mlir::Type element);

/// `tensor` with f32 elements, converted from f16 or bf16 (a new tensor).
mlir::Value toLibraryElements(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value tensor);
/// `tensor` (f32) converted to `element` (a new tensor, or `tensor`).
mlir::Value fromLibraryElements(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value tensor, mlir::Type element);

/// Calls kiln_rt_<name>_f32(operands..., out, extra..., site) where `out`
/// is a fresh f32 buffer of `shape` (index `sizes`, one per dim) that the
/// library writes, and returns it as a tensor. `operands` are the library's
/// views (viewAsUnrankedMemref). The library reports its own errors; the
/// site gives them the op's location. With `outPermutation`, the library
/// gets the buffer's view permuted so (memref.transpose).
mlir::Value callKernelLibrary(mlir::OpBuilder &b, mlir::Location loc,
                              LoweringState &state, llvm::StringRef name,
                              mlir::ValueRange operands,
                              llvm::ArrayRef<int64_t> shape,
                              mlir::ValueRange sizes, mlir::ValueRange extra,
                              llvm::ArrayRef<int64_t> outPermutation = {});

} // namespace kiln::codegen

#endif // KILN_CODEGEN_LOWERING_LIBRARYCALLS_H

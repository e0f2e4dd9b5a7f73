//===- AbiGlue.h - Connect generated LLVM IR to kiln/abi.h ------*- C++ -*-===//
#ifndef KILN_CODEGEN_CPU_ABIGLUE_H
#define KILN_CODEGEN_CPU_ABIGLUE_H

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace kiln {

/// A weight an entry point takes after its inputs (WeightArguments.cpp).
struct WeightArgument {
  int64_t index; // into kiln_module.weights
  std::vector<int64_t> shape;
};

struct EntrySignature {
  std::string name;
  unsigned numArgs = 0; // the inputs the runtime passes
  unsigned numResults = 0;
  std::vector<WeightArgument> weights;
};

/// Completes a translated module into a kiln code object:
/// - defines every runtime function the code calls (_mlir_ciface_kiln_rt_*
///   and MLIR's _mlir_memref_to_llvm_alloc/free) as a jump through the
///   kiln_host_api table the runtime installs;
/// - adds one kiln_entry_fn wrapper per entry point and the exported
///   kiln_module table that lists them, with `numWeights` weight slots that
///   the wrappers read their weight arguments from;
/// - defines the kiln_launch__* declarations of a CUDA entry's host code
///   as calls of launch_kernel;
/// - makes every other symbol internal, so two loaded models never clash.
/// With `deviceBuffers` (CUDA host code), allocations go to device_alloc
/// and device_free instead of alloc and free.
/// Returns an error message, or an empty string on success.
std::string addAbiGlue(llvm::Module &module,
                       const std::vector<EntrySignature> &entries,
                       unsigned numWeights, bool deviceBuffers = false);

} // namespace kiln

#endif // KILN_CODEGEN_CPU_ABIGLUE_H

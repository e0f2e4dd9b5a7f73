//===- Activations.h - The activations of kiln.matmul_epilogue ------------===//
//
// One table names each activation a library call can apply (the IR's
// `activation` attribute) with its kiln/abi.h code; the verifier, the
// lowering and the epilogue pass read it.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_IR_ACTIVATIONS_H
#define KILN_IR_ACTIVATIONS_H

#include "runtime/include/kiln/abi.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace kiln {

inline constexpr std::pair<const char *, kiln_activation> kActivations[] = {
    {"none", KILN_ACTIVATION_NONE},
    {"relu", KILN_ACTIVATION_RELU},
    {"tanh", KILN_ACTIVATION_TANH},
    {"sigmoid", KILN_ACTIVATION_SIGMOID},
    {"silu", KILN_ACTIVATION_SILU},
};

/// The kiln/abi.h code of activation `name`, if it is one.
inline std::optional<kiln_activation> activationCode(llvm::StringRef name) {
  for (auto [known, code] : kActivations)
    if (name == known)
      return code;
  return std::nullopt;
}

} // namespace kiln

#endif // KILN_IR_ACTIVATIONS_H

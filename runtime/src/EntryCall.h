//===- EntryCall.h - One call of an entry point ---------------*- C++ -*-===//
#ifndef KILN_RUNTIME_ENTRYCALL_H
#define KILN_RUNTIME_ENTRYCALL_H

#include "kiln/Model.h"

#include <string>
#include <vector>

namespace kiln {

/// Checks inputs against the signature: count, dtype, rank, static dims,
/// one size per dim symbol, and sizes that cannot wrap. Returns an error
/// message, or "" without allocating.
std::string checkInputs(const EntryInfo &entry,
                        const std::vector<Tensor> &inputs);

/// Model::run: entry `index` of `impl` on `inputs`, results as new tensors.
Result<std::vector<Tensor>> runEntry(const Model::Impl &impl, size_t index,
                                     const std::vector<Tensor> &inputs);

/// Function::run: the same, with each result copied into the caller's
/// output tensor of its dtype and shape. A warm call allocates nothing.
Result<void> runEntryInto(const Model::Impl &impl, size_t index,
                          const std::vector<Tensor> &inputs,
                          std::vector<Tensor> &outputs);

} // namespace kiln

#endif // KILN_RUNTIME_ENTRYCALL_H

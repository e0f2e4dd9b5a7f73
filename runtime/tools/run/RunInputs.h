//===- RunInputs.h - The tensors `--input NAME=SOURCE` names -------------===//
//
// A source is, in this order of precedence:
//   random | random:SEED      seeded random values, shaped by --dim
//   SHAPExDTYPE=VALUES        a literal as IREE writes it: "2x2xf32=1 2 3 4",
//                             "f32=1.5" (0-d); values split by spaces or commas
//   1.5 | 3 | true            a 0-d literal of the input's own dtype
//   anything else             a .npy file
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_TOOLS_RUN_RUNINPUTS_H
#define KILN_RUNTIME_TOOLS_RUN_RUNINPUTS_H

#include "RunCommand.h"

#include "kiln/Model.h"

#include <cstdint>
#include <map>
#include <string>

namespace kiln {

/// Why an input could not be made: the message (without "kiln: error:")
/// and the exit code, 2 for a malformed flag and 1 for a failure to read
/// or allocate.
struct InputError {
  std::string message;
  int exitCode = 0;
  explicit operator bool() const { return !message.empty(); }
};

/// Makes the tensor for `arg` from `source`. Random values use seed + i,
/// the input's position, so that two inputs never repeat each other; their
/// symbolic dims come from `dims` (4 where absent). `fromData` is set when
/// the shape came from a file or a literal, whose dims --dim must agree with.
InputError makeInput(const ValueInfo &arg, size_t index,
                     const std::string &source,
                     const std::map<std::string, int64_t> &dims, Tensor &out,
                     bool &fromData);

/// The entry `options.entry` names, or the archive's only one; null after
/// printing why not.
const EntryInfo *chooseEntry(const Model &model, const RunOptions &options);
/// The inputs of `entry` that `options` describe, in the entry's order;
/// returns 0, or the exit code after printing an error.
int gatherInputs(const RunOptions &options, const EntryInfo &entry,
                 std::vector<Tensor> &inputs);

} // namespace kiln

#endif // KILN_RUNTIME_TOOLS_RUN_RUNINPUTS_H

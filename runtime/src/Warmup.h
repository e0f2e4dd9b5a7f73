//===- Warmup.h - LoadOptions::warmup (private) ---------------------------===//
#ifndef KILN_RUNTIME_WARMUP_H
#define KILN_RUNTIME_WARMUP_H

#include "kiln/Model.h"

#include <map>
#include <string>

namespace kiln {

/// Calls each entry point of `model` once on zeros, symbolic dims sized by
/// `dims` (LoadOptions::warmup states the inputs); the error of the first
/// entry that cannot be called, named.
Result<void> warmUp(const Model &model,
                    const std::map<std::string, int64_t> &dims);

} // namespace kiln

#endif // KILN_RUNTIME_WARMUP_H

//===- OpTableTensor.cpp - The op table's rows: Tensor family ===//
//
// The rows for reductions, shape and view ops, casts, creation ops and the other Tensor methods (see OpFamilies.h).
//
//===----------------------------------------------------------------------===//
#include "frontend/OpFamilies.h"

namespace kiln::ops {

std::vector<Row> tensorRows() { return {}; }

} // namespace kiln::ops

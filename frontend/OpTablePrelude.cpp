//===- OpTablePrelude.cpp - The op table's rows: Prelude family ===//
//
// The rows for the ops written in the Python prelude (frontend/prelude/) (see OpFamilies.h).
//
//===----------------------------------------------------------------------===//
#include "frontend/OpFamilies.h"

namespace kiln::ops {

std::vector<Row> preludeRows() { return {}; }

} // namespace kiln::ops

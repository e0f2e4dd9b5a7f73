//===- Limits.h - Bounds on programs that every stage agrees on ---*- C++
//-*-===//
//
// A hostile or generated program must get a clear error, not a compile
// that runs for hours. Bounds that more than one stage enforces live here,
// once; docs/python-subset.md lists them with the reasons.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_IR_LIMITS_H
#define KILN_IR_LIMITS_H

#include "runtime/include/kiln/abi.h"

namespace kiln {

/// The largest tensor rank kiln compiles; see KILN_MAX_RANK in kiln/abi.h,
/// which the runtime applies to the tensors it reads.
constexpr unsigned kMaxRank = KILN_MAX_RANK;

/// Statically nested loops in one function. CPython refuses more than 20
/// ("too many statically nested blocks"); the frontend does too, and the
/// inliner never composes a deeper nest, because bufferizing an scf.for nest
/// takes time exponential in its depth.
constexpr unsigned kMaxLoopDepth = 20;

/// Statements lowered in one compilation (a helper counts once per
/// specialization). Compile time is linear in the program up to here (1.6 s
/// for 10,000 statements on a 2-core machine); past it, LLVM's code
/// generation for one huge function grows faster (100,000 statements took
/// 50 s), so a larger program is refused at once rather than compiled slowly.
constexpr unsigned kMaxStatements = 20000;

} // namespace kiln

#endif // KILN_IR_LIMITS_H

//===- OpFamilies.h - The files that hold the op table's rows ---*- C++ -*-===//
//
// Private to frontend/. The op table's rows are decorators in the prelude,
// one file per family (frontend/prelude/unary.py: unary math;
// activations.py; arithmetic.py: arithmetic and comparisons; ...); the C++
// builders that some rows name live in OpTable*.cpp, one file per family,
// each exporting them from one function. allRows() reads the families in
// the order below, which is the order of the generated documentation.
// Adding a family is a prelude file and an entry in kFamilies (and, if it
// has builders, a file and an entry in kBuilderFamilies).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_OPFAMILIES_H
#define KILN_FRONTEND_OPFAMILIES_H

#include "frontend/OpTable.h"

#include <vector>

namespace kiln::ops {

inline constexpr const char *kFamilies[] = {
    "unary.py",     "activations.py", "arithmetic.py", "pymath.py",
    "reductions.py", "views.py",      "tensor.py",     "creation.py",
    "linalg.py",    "functional.py",  "indexing.py",   "resample.py",
    "order.py",     "nn.py",          "aten.py",
};

/// A C++ builder that prelude rows name with `build='NAME'`.
struct NamedBuilder {
  const char *name;
  Builder build;
};
std::vector<NamedBuilder> activationBuilders(); // OpTableActivations.cpp
std::vector<NamedBuilder> arithmeticBuilders(); // OpTableArithmetic.cpp
std::vector<NamedBuilder> reductionBuilders();  // OpTableReductions.cpp
std::vector<NamedBuilder> viewBuilders();       // OpTableViews.cpp
std::vector<NamedBuilder> tensorBuilders();     // OpTableTensor.cpp
std::vector<NamedBuilder> indexingBuilders();   // OpTableIndexing.cpp
std::vector<NamedBuilder> creationBuilders();   // OpTableCreation.cpp
std::vector<NamedBuilder> linalgBuilders();     // OpTableLinalg.cpp
std::vector<NamedBuilder> nnBuilders();         // OpTableNN.cpp

inline constexpr std::vector<NamedBuilder> (*kBuilderFamilies[])() = {
    activationBuilders,
    arithmeticBuilders,
    reductionBuilders,
    viewBuilders,
    tensorBuilders,
    indexingBuilders,
    creationBuilders,
    linalgBuilders,
    nnBuilders,
};
/// Every family's builders (OpTable.cpp).
const std::vector<NamedBuilder> &allBuilders();

} // namespace kiln::ops

#endif // KILN_FRONTEND_OPFAMILIES_H

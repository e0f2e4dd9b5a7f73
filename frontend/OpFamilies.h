//===- OpFamilies.h - The files that hold the op table's rows ---*- C++ -*-===//
//
// Private to frontend/. Each family of torch ops keeps its rows and their
// builders in a file of its own (OpTableUnaryMath.cpp: unary math and
// Python's math module; OpTableActivations.cpp; OpTableArithmetic.cpp:
// arithmetic and comparisons; ...), and returns them from one function;
// allRows() concatenates the families in the order below, which is the
// order of the generated documentation. Adding a family is a file, a
// declaration here and an entry in kFamilies.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_OPFAMILIES_H
#define KILN_FRONTEND_OPFAMILIES_H

#include "frontend/OpTable.h"

#include <vector>

namespace kiln::ops {

std::vector<Row> unaryRows();       // OpTableUnaryMath.cpp
std::vector<Row> activationRows();  // OpTableActivations.cpp
std::vector<Row> arithmeticRows();  // OpTableArithmetic.cpp
std::vector<Row> mathRows();        // OpTableUnaryMath.cpp
std::vector<Row> reductionRows();   // OpTableReductions.cpp
std::vector<Row> viewRows();        // OpTableViews.cpp
std::vector<Row> tensorRows();      // OpTableTensor.cpp
std::vector<Row> creationRows();    // OpTableCreation.cpp
std::vector<Row> linalgRows();      // OpTableLinalg.cpp
std::vector<Row> nnRows();          // OpTableNN.cpp
std::vector<Row> indexingRows();    // OpTableIndexing.cpp
std::vector<Row> resampleRows();    // OpTableResample.cpp
std::vector<Row> orderRows();       // OpTableIndexing.cpp
std::vector<Row> nnPreludeRows();   // PreludeRows.cpp: prelude/nn.py

inline constexpr std::vector<Row> (*kFamilies[])() = {
    unaryRows,     activationRows, arithmeticRows, mathRows,
    reductionRows, viewRows,       tensorRows,     creationRows,
    linalgRows,    nnRows,
    indexingRows,  resampleRows,   orderRows,      nnPreludeRows,
};

/// A C++ builder that prelude rows name with `build='NAME'`.
struct NamedBuilder {
  const char *name;
  Builder build;
};
std::vector<NamedBuilder> activationBuilders(); // OpTableActivations.cpp
std::vector<NamedBuilder> unaryBuilders();      // OpTableUnaryMath.cpp
std::vector<NamedBuilder> arithmeticBuilders(); // OpTableArithmetic.cpp
std::vector<NamedBuilder> reductionBuilders();  // OpTableReductions.cpp
std::vector<NamedBuilder> viewBuilders();       // OpTableViews.cpp
std::vector<NamedBuilder> tensorBuilders();     // OpTableTensor.cpp
std::vector<NamedBuilder> indexingBuilders();   // OpTableIndexing.cpp
std::vector<NamedBuilder> resampleBuilders();   // OpTableResample.cpp
std::vector<NamedBuilder> creationBuilders();   // OpTableCreation.cpp
std::vector<NamedBuilder> linalgBuilders();     // OpTableLinalg.cpp
std::vector<NamedBuilder> nnBuilders();         // OpTableNN.cpp

inline constexpr std::vector<NamedBuilder> (*kBuilderFamilies[])() = {
    activationBuilders,
    unaryBuilders,
    arithmeticBuilders,
    reductionBuilders,
    viewBuilders,
    tensorBuilders,
    indexingBuilders,
    resampleBuilders,
    creationBuilders,
    linalgBuilders,
    nnBuilders,
};
/// Every family's builders (OpTable.cpp).
const std::vector<NamedBuilder> &allBuilders();

} // namespace kiln::ops

#endif // KILN_FRONTEND_OPFAMILIES_H

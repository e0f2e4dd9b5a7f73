//===- DotGraph.h - kiln IR as a Graphviz graph -----------------*- C++ -*-===//
#ifndef KILN_IR_DOTGRAPH_H
#define KILN_IR_DOTGRAPH_H

namespace llvm {
class raw_ostream;
} // namespace llvm
namespace mlir {
class ModuleOp;
} // namespace mlir

namespace kiln {

/// Writes `module` as a Graphviz digraph: one node per op, one edge per
/// use of a value, and one cluster per function and per fusion group (the
/// latter labelled with its op count). The output is deterministic.
void printDotGraph(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace kiln

#endif // KILN_IR_DOTGRAPH_H

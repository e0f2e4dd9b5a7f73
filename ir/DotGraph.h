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

/// Writes `module` as a Graphviz digraph for `kiln compile --emit=dot`: one
/// node per op (`mul : f32[?]`), one edge per use of a value, and one
/// cluster per function, per fusion group (labelled `fusion_group (N ops)`)
/// and per scf.for/if/while. Edges cross fusion-group boundaries straight
/// from producer to consumer, so the picture reads as dataflow. Constants
/// are drawn as plain text at each use. Nodes are numbered in walk order,
/// so the output is deterministic.
void printDotGraph(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace kiln

#endif // KILN_IR_DOTGRAPH_H

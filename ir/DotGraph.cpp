//===- DotGraph.cpp - STUB: being written ---------------------------------===//
#include "ir/DotGraph.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

void kiln::printDotGraph(mlir::ModuleOp, llvm::raw_ostream &os) {
  os << "digraph kiln {\n}\n";
}

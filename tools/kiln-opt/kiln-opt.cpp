//===- kiln-opt.cpp - mlir-opt for the kiln dialect -----------------------===//
//
// Registers the dialects kiln IR and its lowering use, and only the passes
// the golden tests need, so the tool builds quickly (no InitAllDialects.h).
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "ir/KilnDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerInlinerPass();
  mlir::registerSymbolDCEPass();
  mlir::registerSCCPPass();
  mlir::registerLoopInvariantCodeMotionPass();
  kiln::registerCodegenPasses();

  mlir::DialectRegistry registry;
  kiln::registerCodegenDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "kiln optimizer driver\n", registry));
}

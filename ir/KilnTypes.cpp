//===- KilnTypes.cpp - kiln dialect types ---------------------------------===//

#include "ir/KilnDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln;

#define GET_TYPEDEF_CLASSES
#include "ir/KilnTypes.cpp.inc"

void KilnDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ir/KilnTypes.cpp.inc"
      >();
}

//===- KilnDialect.td - the kiln dialect -------------------*- tablegen -*-===//
//
// The kiln dialect models TorchScript-style Python programs: tensor math on
// builtin ranked tensors, Python scalars (i64, f64, i1), functional lists and
// the two side-effecting statements print and assert.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_TD
#define KILN_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Kiln_Dialect : Dialect {
  let name = "kiln";
  let cppNamespace = "::kiln";
  let summary = "TorchScript-style Python on ranked tensors";
  let description = [{
    Tensors are builtin ranked `tensor` types whose `?` dims are dynamic at
    run time. Python int, float and bool are i64, f64 and i1. The dialect
    adds one type, `!kiln.list<T>`, a functional Python list.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

class Kiln_Op<string mnemonic, list<Trait> traits = []>
    : Op<Kiln_Dialect, mnemonic, traits>;

#endif // KILN_DIALECT_TD

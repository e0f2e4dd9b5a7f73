//===- KilnTypes.td - kiln dialect types -------------------*- tablegen -*-===//

#ifndef KILN_TYPES_TD
#define KILN_TYPES_TD

include "ir/KilnDialect.td"

def Kiln_ListType : TypeDef<Kiln_Dialect, "List"> {
  let mnemonic = "list";
  let summary = "a functional Python list";
  let description = [{
    `!kiln.list<T>` is an immutable Python list whose elements all have type
    `T`. `kiln.list_append` returns a new list.
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), elementType);
    }]>
  ];
}

def Kiln_AnyList : Type<CPred<"::llvm::isa<::kiln::ListType>($_self)">,
                        "kiln list", "::kiln::ListType">;
def Kiln_TensorList
    : Type<And<[CPred<"::llvm::isa<::kiln::ListType>($_self)">,
                CPred<"::llvm::isa<::mlir::RankedTensorType>("
                      "::llvm::cast<::kiln::ListType>($_self).getElementType())">]>,
           "kiln list of ranked tensors", "::kiln::ListType">;

#endif // KILN_TYPES_TD

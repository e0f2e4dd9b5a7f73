//===- LoweringSupport.cpp - Shared pieces of the kiln-to-linalg lowering -===//

#include "codegen/lowering/LoweringSupport.h"

#include "runtime/include/kiln/abi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace kiln::codegen {

//===----------------------------------------------------------------------===//
// RuntimeTables
//===----------------------------------------------------------------------===//

FileLineColLoc findFileLoc(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file;
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return findFileLoc(callSite.getCallee());
  if (auto name = dyn_cast<NameLoc>(loc))
    return findFileLoc(name.getChildLoc());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (FileLineColLoc file = findFileLoc(inner))
        return file;
  return {};
}

int64_t RuntimeTables::addSite(Location loc, StringRef message) {
  MLIRContext *context = loc.getContext();
  Builder b(context);
  FileLineColLoc file = findFileLoc(loc);
  NamedAttribute fields[] = {
      b.getNamedAttr("file", b.getStringAttr(file ? file.getFilename().str()
                                                  : std::string())),
      b.getNamedAttr("line", b.getI64IntegerAttr(file ? file.getLine() : 0)),
      b.getNamedAttr("col", b.getI64IntegerAttr(file ? file.getColumn() : 0)),
      b.getNamedAttr("message", b.getStringAttr(message))};
  sites.push_back(b.getDictionaryAttr(fields));
  return static_cast<int64_t>(sites.size()) - 1;
}

int64_t RuntimeTables::addString(StringRef text) {
  auto [it, inserted] =
      stringIndex.try_emplace(text, static_cast<int64_t>(strings.size()));
  if (inserted)
    strings.push_back(text.str());
  return it->second;
}

void RuntimeTables::store(ModuleOp module) const {
  Builder b(module.getContext());
  SmallVector<Attribute> stringAttrs;
  for (const std::string &s : strings)
    stringAttrs.push_back(b.getStringAttr(s));
  module->setAttr("kiln.sites", b.getArrayAttr(sites));
  module->setAttr("kiln.strings", b.getArrayAttr(stringAttrs));
}

RuntimeTables RuntimeTables::load(ModuleOp module) {
  RuntimeTables tables;
  if (auto sites = module->getAttrOfType<ArrayAttr>("kiln.sites"))
    tables.sites.assign(sites.begin(), sites.end());
  if (auto strings = module->getAttrOfType<ArrayAttr>("kiln.strings"))
    for (Attribute s : strings)
      tables.addString(cast<StringAttr>(s).getValue());
  return tables;
}

//===----------------------------------------------------------------------===//
// Scalars and indices
//===----------------------------------------------------------------------===//

Value floatExtremum(OpBuilder &b, Location loc, Value x, Value y, bool max) {
  auto flags = arith::FastMathFlagsAttr::get(b.getContext(),
                                             arith::FastMathFlags::nsz);
  if (max)
    return b.create<arith::MaximumFOp>(loc, x, y, flags);
  return b.create<arith::MinimumFOp>(loc, x, y, flags);
}

Value convertScalar(OpBuilder &b, Location loc, Value value, Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (toInt && toInt.getWidth() == 1) {
    if (fromFloat) {
      Value zero = b.create<arith::ConstantOp>(loc, b.getFloatAttr(from, 0.0));
      // une: NaN is true, as bool(float('nan')) is.
      return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, value,
                                     zero);
    }
    Value zero = b.create<arith::ConstantOp>(loc, b.getIntegerAttr(from, 0));
    return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, value, zero);
  }
  if (fromInt && toInt) {
    if (fromInt.getWidth() == 1)
      return b.create<arith::ExtUIOp>(loc, to, value);
    if (fromInt.getWidth() < toInt.getWidth())
      return b.create<arith::ExtSIOp>(loc, to, value);
    return b.create<arith::TruncIOp>(loc, to, value);
  }
  if (fromInt && toFloat) {
    if (fromInt.getWidth() == 1)
      return b.create<arith::UIToFPOp>(loc, to, value);
    return b.create<arith::SIToFPOp>(loc, to, value);
  }
  if (fromFloat && toInt)
    return b.create<arith::FPToSIOp>(loc, to, value);
  assert(fromFloat && toFloat && "convertScalar: unexpected types");
  if (fromFloat.getWidth() < toFloat.getWidth())
    return b.create<arith::ExtFOp>(loc, to, value);
  if (fromFloat.getWidth() > toFloat.getWidth()) {
    // A constant is rounded now, to nearest with ties to even as fptrunc
    // rounds at run time: arith.truncf folds only values it keeps exactly,
    // and a Python float such as 0.7071067811865476 would otherwise stay a
    // run-time value, hidden from the patterns that look for constants
    // (FastErf.cpp's GELU) once tiles are outlined.
    FloatAttr constant;
    if (matchPattern(value, m_Constant(&constant))) {
      APFloat rounded = constant.getValue();
      bool losesInfo = false;
      rounded.convert(toFloat.getFloatSemantics(),
                      APFloat::rmNearestTiesToEven, &losesInfo);
      return b.create<arith::ConstantOp>(loc, b.getFloatAttr(to, rounded));
    }
    return b.create<arith::TruncFOp>(loc, to, value);
  }
  // f16 <-> bf16: through f32.
  Value wide = b.create<arith::ExtFOp>(loc, b.getF32Type(), value);
  return b.create<arith::TruncFOp>(loc, to, wide);
}

Value indexValue(OpBuilder &b, Location loc, int64_t value) {
  return b.create<arith::ConstantIndexOp>(loc, value);
}

Value toIndex(OpBuilder &b, Location loc, Value i64) {
  if (i64.getType().isIndex())
    return i64;
  return b.create<arith::IndexCastOp>(loc, b.getIndexType(), i64);
}

Value toI64(OpBuilder &b, Location loc, Value index) {
  if (index.getType().isInteger(64))
    return index;
  if (index.getType().isIndex())
    return b.create<arith::IndexCastOp>(loc, b.getI64Type(), index);
  return convertScalar(b, loc, index, b.getI64Type());
}

SmallVector<Value> tensorSizes(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (type.isDynamicDim(i))
      sizes.push_back(b.create<tensor::DimOp>(loc, tensor, i));
    else
      sizes.push_back(indexValue(b, loc, type.getDimSize(i)));
  }
  return sizes;
}

Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ValueRange sizes) {
  SmallVector<Value> dynamic;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      dynamic.push_back(sizes[i]);
  return b.create<tensor::EmptyOp>(loc, type.getShape(),
                                   type.getElementType(), dynamic);
}

int32_t abiDType(Type elementType) {
  if (elementType.isF32())
    return KILN_F32;
  if (elementType.isF64())
    return KILN_F64;
  if (elementType.isF16())
    return KILN_F16;
  if (elementType.isBF16())
    return KILN_BF16;
  if (elementType.isInteger(32))
    return KILN_I32;
  if (elementType.isInteger(64))
    return KILN_I64;
  assert(elementType.isInteger(1) && "abiDType: not a kiln element type");
  return KILN_BOOL;
}

//===----------------------------------------------------------------------===//
// Calls into the runtime
//===----------------------------------------------------------------------===//

void emitCheck(OpBuilder &b, Location loc, Value failed, int64_t site,
               ValueRange operands) {
  Value siteValue =
      b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(site));
  emitCheck(b, loc, failed, siteValue, operands);
}

void emitCheck(OpBuilder &b, Location loc, Value failed, Value site,
               ValueRange operands) {
  assert(operands.size() <= 4 && "raise() takes at most four operands");
  b.create<scf::IfOp>(loc, failed, [&](OpBuilder &then, Location thenLoc) {
    SmallVector<Value> args{site};
    for (Value operand : operands)
      args.push_back(toI64(then, thenLoc, operand));
    while (args.size() < 5)
      args.push_back(
          then.create<arith::ConstantOp>(thenLoc, then.getI64IntegerAttr(0)));
    callRuntime(then, thenLoc, "kiln_rt_raise", {}, args);
    then.create<scf::YieldOp>(thenLoc);
  });
}

ValueRange callRuntime(OpBuilder &b, Location loc, StringRef name,
                       TypeRange results, ValueRange args) {
  return b.create<func::CallOp>(loc, name, results, args).getResults();
}

/// The element types a runtime function that takes a tensor is declared
/// for: one declaration each, because an unranked memref still has one.
static SmallVector<std::pair<StringRef, Type>> tensorElementTypes(Builder &b) {
  return {{"f32", b.getF32Type()},     {"f64", b.getF64Type()},
          {"f16", b.getF16Type()},     {"bf16", b.getBF16Type()},
          {"i32", b.getI32Type()},     {"i64", b.getI64Type()},
          {"bool", b.getI1Type()}};
}

void declareRuntimeFunctions(ModuleOp module) {
  OpBuilder b(module.getBodyRegion());
  Location loc = module.getLoc();
  Type i32 = b.getI32Type(), i64 = b.getI64Type(), f64 = b.getF64Type();
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto declare = [&](StringRef name, TypeRange args, TypeRange results) {
    if (module.lookupSymbol(name))
      return;
    auto fn = b.create<func::FuncOp>(loc, name,
                                     b.getFunctionType(args, results));
    fn.setPrivate();
    // C-compatible wrappers (_mlir_ciface_*) that AbiGlue routes through
    // the runtime's kiln_host_api table.
    fn->setAttr("llvm.emit_c_interface", b.getUnitAttr());
  };
  declare("kiln_rt_raise", {i64, i64, i64, i64, i64}, {});
  declare("kiln_rt_print_begin", {i64}, {});
  declare("kiln_rt_print_i64", {i64}, {});
  declare("kiln_rt_print_f64", {f64}, {});
  declare("kiln_rt_print_bool", {i32}, {});
  declare("kiln_rt_print_end", {}, {});
  declare("kiln_rt_list_new", {}, {ptr});
  declare("kiln_rt_list_clone", {ptr}, {ptr});
  declare("kiln_rt_list_len", {ptr}, {i64});
  declare("kiln_rt_list_result_dim", {ptr, i32, i64, i64, i64}, {i64});
  declare("kiln_rt_random_stream", {}, {i64});
  // The buffer of an entry's result, which Function::run may have lent
  // (codegen/cpu/ResultBuffers.cpp).
  declare("kiln_rt_alloc_result", {i64, i64}, {ptr});
  // A CUDA call's check record, which kernels write (KernelChecks.cpp).
  declare("kiln_rt_kernel_check_record", {}, {ptr});
  // A CUDA entry's host code reading or writing a device tensor's element
  // (HostDeviceAccess.cpp).
  declare("kiln_rt_device_read", {ptr, i64}, {i64});
  declare("kiln_rt_device_write", {ptr, i64, i64}, {});
  // The kernel library is called in f32 only: f16 and bf16 are converted
  // around the call (LibraryCalls.cpp).
  Type f32Tensor = UnrankedMemRefType::get(b.getF32Type(), /*memorySpace=*/0);
  declare("kiln_rt_matmul_f32", {f32Tensor, f32Tensor, f32Tensor, i64}, {});
  declare("kiln_rt_matmul_epilogue_f32",
          {f32Tensor, f32Tensor, f32Tensor, f32Tensor, i32, i64}, {});
  declare(
      "kiln_rt_conv2d_f32",
      {f32Tensor, f32Tensor, f32Tensor, i64, i64, i64, i64, i64, i64, i64, i64},
      {});
  for (auto [suffix, type] : tensorElementTypes(b)) {
    Type unranked = UnrankedMemRefType::get(type, /*memorySpace=*/0);
    declare(("kiln_rt_print_tensor_" + suffix).str(), {unranked}, {});
    declare(("kiln_rt_list_append_" + suffix).str(), {ptr, unranked}, {});
    declare(("kiln_rt_list_materialize_" + suffix).str(),
            {ptr, i32, i64, unranked, i64}, {});
  }
}

void eraseUnusedRuntimeFunctions(ModuleOp module) {
  for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
    if (!fn.isExternal() || !fn.getName().starts_with("kiln_rt_"))
      continue;
    if (SymbolTable::symbolKnownUseEmpty(fn, module))
      fn.erase();
  }
}

std::string elementSuffix(Type elementType) {
  Builder b(elementType.getContext());
  for (auto [suffix, type] : tensorElementTypes(b))
    if (type == elementType)
      return suffix.str();
  llvm_unreachable("elementSuffix: not a kiln element type");
}

Value viewAsUnrankedMemref(OpBuilder &b, Location loc, Value tensor,
                           ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(tensor.getType());
  // A fully dynamic layout accepts whatever buffer bufferization picks, so
  // no copy is made just to print or append.
  SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
  auto layout = StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                                       strides);
  auto memrefType =
      MemRefType::get(type.getShape(), type.getElementType(), layout);
  Value memref = b.create<bufferization::ToMemrefOp>(loc, memrefType, tensor,
                                                     /*read_only=*/true);
  if (!permutation.empty() &&
      !llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size())))
    memref = b.create<memref::TransposeOp>(
        loc, memref,
        AffineMapAttr::get(
            AffineMap::getPermutationMap(permutation, b.getContext())));
  return b.create<memref::CastOp>(
      loc, UnrankedMemRefType::get(type.getElementType(), 0), memref);
}

} // namespace kiln::codegen

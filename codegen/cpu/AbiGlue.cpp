//===- AbiGlue.cpp - Connect generated LLVM IR to kiln/abi.h --------------===//
//
// Compiled code calls the runtime only through function pointers in a
// kiln_host_api table, never through dynamic symbol lookup: a code object
// then needs nothing from the process but libc and libm, and the runtime
// can be linked statically or dynamically into the user's app. The table
// layout comes straight from the C header via offsetof, so the two cannot
// drift apart.
//
//===----------------------------------------------------------------------===//

#include "codegen/cpu/AbiGlue.h"

#include "runtime/include/kiln/abi.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <cstddef>
#include <cstring>

using namespace llvm;

namespace kiln {
namespace {

struct HostFunction {
  StringRef name;   // after _mlir_ciface_kiln_rt_
  size_t offset;    // in kiln_host_api
  bool typed;       // has _<dtype> variants that append a kiln_dtype
};

#define KILN_SLOT(field, typed) {#field, offsetof(kiln_host_api, field), typed}
const HostFunction hostFunctions[] = {
    KILN_SLOT(raise, false),          KILN_SLOT(print_begin, false),
    KILN_SLOT(print_i64, false),      KILN_SLOT(print_f64, false),
    KILN_SLOT(print_bool, false),     KILN_SLOT(print_tensor, true),
    KILN_SLOT(print_end, false),      KILN_SLOT(list_new, false),
    KILN_SLOT(list_clone, false),     KILN_SLOT(list_append, true),
    KILN_SLOT(list_len, false),       KILN_SLOT(list_result_dim, false),
    KILN_SLOT(list_materialize, true), KILN_SLOT(random_stream, false),
    KILN_SLOT(matmul, true),          KILN_SLOT(conv2d, true),
    KILN_SLOT(kernel_check_record, false),
    KILN_SLOT(device_read, false),    KILN_SLOT(device_write, false),
    KILN_SLOT(matmul_epilogue, true), KILN_SLOT(alloc_result, false),
};
#undef KILN_SLOT

const std::pair<StringRef, int32_t> dtypeSuffixes[] = {
    {"f32", KILN_F32}, {"f64", KILN_F64}, {"f16", KILN_F16},
    {"bf16", KILN_BF16}, {"i32", KILN_I32}, {"i64", KILN_I64},
    {"bool", KILN_BOOL}};

/// Fills `fn` (a declaration) with: load the table, load slot `offset`,
/// call it with fn's arguments plus `extra`, return its result.
void defineThunk(Function &fn, GlobalVariable &hostSlot, size_t offset,
                 ArrayRef<Value *> extra) {
  LLVMContext &context = fn.getContext();
  IRBuilder<> b(BasicBlock::Create(context, "entry", &fn));
  Value *table = b.CreateLoad(b.getPtrTy(), &hostSlot, "host");
  Value *slot = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), table, offset);
  Value *target = b.CreateLoad(b.getPtrTy(), slot);
  SmallVector<Value *> args;
  SmallVector<Type *> params;
  for (Argument &arg : fn.args()) {
    args.push_back(&arg);
    params.push_back(arg.getType());
  }
  for (Value *value : extra) {
    args.push_back(value);
    params.push_back(value->getType());
  }
  auto *type = FunctionType::get(fn.getReturnType(), params, false);
  CallInst *call = b.CreateCall(type, target, args);
  if (fn.getReturnType()->isVoidTy())
    b.CreateRetVoid();
  else
    b.CreateRet(call);
  fn.setLinkage(GlobalValue::InternalLinkage);
}

/// Defines `kiln_parallel__X(n, points, values...)` (ParallelTiles.cpp) as:
/// store the values in a frame on the stack, and call parallel_for with a
/// trampoline that unpacks them and runs `kiln_tiles__X(begin, end,
/// values...)` over its share of the n tiles.
std::string defineParallelLauncher(Function &launcher,
                                   GlobalVariable &hostSlot) {
  Module &module = *launcher.getParent();
  LLVMContext &context = module.getContext();
  StringRef name = launcher.getName().drop_front(strlen("kiln_parallel__"));
  Function *tiles = module.getFunction(("kiln_tiles__" + name).str());
  if (!tiles || tiles->arg_size() != launcher.arg_size())
    return ("no tile body for '" + launcher.getName() + "'").str();
  SmallVector<Type *> fields;
  for (Argument &arg : llvm::drop_begin(launcher.args(), 2))
    fields.push_back(arg.getType());
  auto *frameType = StructType::get(context, fields);
  Type *ptr = PointerType::get(context, 0);
  Type *i64 = Type::getInt64Ty(context);

  auto *trampolineType =
      FunctionType::get(Type::getVoidTy(context), {ptr, i64, i64}, false);
  Function *trampoline =
      Function::Create(trampolineType, GlobalValue::InternalLinkage,
                       "kiln_trampoline__" + name, module);
  {
    IRBuilder<> b(BasicBlock::Create(context, "entry", trampoline));
    SmallVector<Value *> args = {trampoline->getArg(1),
                                 trampoline->getArg(2)};
    for (auto [i, type] : llvm::enumerate(fields))
      args.push_back(b.CreateLoad(
          type, b.CreateStructGEP(frameType, trampoline->getArg(0), i)));
    b.CreateCall(tiles, args);
    b.CreateRetVoid();
  }

  IRBuilder<> b(BasicBlock::Create(context, "entry", &launcher));
  Value *frame = b.CreateAlloca(frameType);
  for (auto [i, arg] : llvm::enumerate(llvm::drop_begin(launcher.args(), 2)))
    b.CreateStore(&arg, b.CreateStructGEP(frameType, frame, i));
  Value *table = b.CreateLoad(ptr, &hostSlot, "host");
  Value *slot = b.CreateConstInBoundsGEP1_64(
      b.getInt8Ty(), table, offsetof(kiln_host_api, parallel_for));
  auto *hookType = FunctionType::get(Type::getVoidTy(context),
                                     {ptr, ptr, i64, i64}, false);
  b.CreateCall(hookType, b.CreateLoad(ptr, slot),
               {trampoline, frame, launcher.getArg(0), launcher.getArg(1)});
  b.CreateRetVoid();
  launcher.setLinkage(GlobalValue::InternalLinkage);
  return "";
}

/// Defines `kiln_launch__K(grid x, y, z, block x, y, z, params...)`
/// (codegen/cuda/KernelLaunches.cpp) as: store the parameters in a frame on
/// the stack, make the array of their addresses that cuLaunchKernel takes,
/// and call launch_kernel with the kernel's name.
void defineKernelLauncher(Function &launcher, GlobalVariable &hostSlot) {
  Module &module = *launcher.getParent();
  LLVMContext &context = module.getContext();
  StringRef kernel = launcher.getName().drop_front(strlen("kiln_launch__"));
  Type *ptr = PointerType::get(context, 0);
  Type *i64 = Type::getInt64Ty(context);
  SmallVector<Type *> fields;
  for (Argument &arg : llvm::drop_begin(launcher.args(), 6))
    fields.push_back(arg.getType());
  auto *frameType = StructType::get(context, fields);

  IRBuilder<> b(BasicBlock::Create(context, "entry", &launcher));
  Value *frame = b.CreateAlloca(frameType);
  Value *params = b.CreateAlloca(ptr, b.getInt64(fields.size()));
  for (auto [i, arg] : llvm::enumerate(llvm::drop_begin(launcher.args(), 6))) {
    Value *field = b.CreateStructGEP(frameType, frame, i);
    b.CreateStore(&arg, field);
    b.CreateStore(field, b.CreateConstGEP1_64(ptr, params, i));
  }
  Value *name = b.CreateGlobalStringPtr(kernel, "kiln.kernel." + kernel);
  Value *table = b.CreateLoad(ptr, &hostSlot, "host");
  Value *slot = b.CreateConstInBoundsGEP1_64(
      b.getInt8Ty(), table, offsetof(kiln_host_api, launch_kernel));
  auto *hookType = FunctionType::get(
      Type::getVoidTy(context), {ptr, i64, i64, i64, i64, i64, i64, ptr, i64},
      false);
  SmallVector<Value *> args = {name};
  for (unsigned i = 0; i < 6; ++i)
    args.push_back(launcher.getArg(i));
  args.push_back(params);
  args.push_back(b.getInt64(fields.size()));
  b.CreateCall(hookType, b.CreateLoad(ptr, slot), args);
  b.CreateRetVoid();
  launcher.setLinkage(GlobalValue::InternalLinkage);
}

std::string defineHostThunks(Module &module, GlobalVariable &hostSlot,
                             bool deviceBuffers) {
  for (Function &fn : llvm::make_early_inc_range(module)) {
    if (!fn.isDeclaration())
      continue;
    StringRef name = fn.getName();
    if (name.starts_with("kiln_parallel__")) {
      if (std::string error = defineParallelLauncher(fn, hostSlot);
          !error.empty())
        return error;
      continue;
    }
    if (name.starts_with("kiln_launch__")) {
      defineKernelLauncher(fn, hostSlot);
      continue;
    }
    if (name == "_mlir_memref_to_llvm_alloc") {
      defineThunk(fn, hostSlot,
                  deviceBuffers ? offsetof(kiln_host_api, device_alloc)
                                : offsetof(kiln_host_api, alloc),
                  {});
      continue;
    }
    if (name == "_mlir_memref_to_llvm_free") {
      defineThunk(fn, hostSlot,
                  deviceBuffers ? offsetof(kiln_host_api, device_free)
                                : offsetof(kiln_host_api, free),
                  {});
      continue;
    }
    if (!name.consume_front("_mlir_ciface_kiln_rt_"))
      continue;
    bool found = false;
    for (const HostFunction &host : hostFunctions) {
      if (!host.typed) {
        if (name != host.name)
          continue;
        defineThunk(fn, hostSlot, host.offset, {});
        found = true;
        break;
      }
      StringRef suffix = name;
      if (!suffix.consume_front(host.name) || !suffix.consume_front("_"))
        continue;
      for (auto [spelling, dtype] : dtypeSuffixes) {
        if (suffix != spelling)
          continue;
        Value *dtypeValue =
            ConstantInt::get(Type::getInt32Ty(module.getContext()), dtype);
        defineThunk(fn, hostSlot, host.offset, {dtypeValue});
        found = true;
      }
      if (found)
        break;
    }
    if (!found)
      return ("generated code calls unknown runtime function '" +
              fn.getName() + "'")
          .str();
  }
  return "";
}

/// A memref descriptor for weight `weight`, on the wrapper's stack: the
/// address from the weight slots, offset 0, static sizes, dense strides.
Value *weightDescriptor(IRBuilder<> &b, GlobalVariable &slots,
                        const WeightArgument &weight) {
  LLVMContext &context = b.getContext();
  Type *ptr = PointerType::get(context, 0);
  Type *i64 = Type::getInt64Ty(context);
  size_t rank = weight.shape.size();
  SmallVector<Type *> fields = {ptr, ptr, i64};
  if (rank > 0)
    fields.append(2, ArrayType::get(i64, rank));
  auto *type = StructType::get(context, fields);
  Value *slot = b.CreateConstInBoundsGEP1_64(ptr, &slots, weight.index);
  Value *data = b.CreateLoad(ptr, slot);
  Value *desc = b.CreateAlloca(type);
  b.CreateStore(data, b.CreateStructGEP(type, desc, 0));
  b.CreateStore(data, b.CreateStructGEP(type, desc, 1));
  b.CreateStore(ConstantInt::get(i64, 0), b.CreateStructGEP(type, desc, 2));
  auto element = [&](unsigned field, size_t i) {
    return b.CreateInBoundsGEP(
        type, desc, {b.getInt32(0), b.getInt32(field), b.getInt64(i)});
  };
  int64_t stride = 1;
  for (size_t i = rank; i-- > 0;) {
    b.CreateStore(ConstantInt::get(i64, weight.shape[i]), element(3, i));
    b.CreateStore(ConstantInt::get(i64, stride), element(4, i));
    stride *= weight.shape[i];
  }
  return desc;
}

/// void kiln_entry_<name>(void **args, void *results): unpacks the argument
/// array into _mlir_ciface_<name>(results, args[0], ..., args[n-1], w...),
/// where the w are descriptors of the entry's weights.
Function *defineEntryWrapper(Module &module, const EntrySignature &entry,
                             GlobalVariable &weightSlots, std::string &error) {
  LLVMContext &context = module.getContext();
  Function *ciface = module.getFunction("_mlir_ciface_" + entry.name);
  if (!ciface) {
    error = "entry point '" + entry.name + "' has no C interface";
    return nullptr;
  }
  Type *ptr = PointerType::get(context, 0);
  auto *type =
      FunctionType::get(Type::getVoidTy(context), {ptr, ptr}, false);
  Function *wrapper = Function::Create(type, GlobalValue::InternalLinkage,
                                       "kiln_entry_" + entry.name, module);
  IRBuilder<> b(BasicBlock::Create(context, "entry", wrapper));
  SmallVector<Value *> args;
  if (entry.numResults > 0)
    args.push_back(wrapper->getArg(1));
  for (unsigned i = 0; i < entry.numArgs; ++i) {
    Value *slot = b.CreateConstInBoundsGEP1_64(ptr, wrapper->getArg(0), i);
    args.push_back(b.CreateLoad(ptr, slot));
  }
  for (const WeightArgument &weight : entry.weights)
    args.push_back(weightDescriptor(b, weightSlots, weight));
  if (args.size() != ciface->arg_size()) {
    error = "entry point '" + entry.name + "' takes " +
            std::to_string(ciface->arg_size()) +
            " C arguments, expected " + std::to_string(args.size());
    return nullptr;
  }
  b.CreateCall(ciface, args);
  b.CreateRetVoid();
  return wrapper;
}

} // namespace

std::string addAbiGlue(Module &module,
                       const std::vector<EntrySignature> &entries,
                       unsigned numWeights, bool deviceBuffers) {
  LLVMContext &context = module.getContext();
  Type *ptr = PointerType::get(context, 0);
  Type *i32 = Type::getInt32Ty(context);

  // Written by the runtime (through kiln_module.host) before any call.
  auto *hostSlot = new GlobalVariable(module, ptr, /*isConstant=*/false,
                                      GlobalValue::InternalLinkage,
                                      ConstantPointerNull::get(
                                          cast<PointerType>(ptr)),
                                      "kiln.host");
  // Mark everything MLIR produced internal before adding the glue: only
  // kiln_module_v1 is exported.
  for (Function &fn : module)
    if (!fn.isDeclaration())
      fn.setLinkage(GlobalValue::InternalLinkage);
  for (GlobalVariable &global : module.globals())
    if (!global.isDeclaration())
      global.setLinkage(GlobalValue::InternalLinkage);

  if (std::string error = defineHostThunks(module, *hostSlot, deviceBuffers);
      !error.empty())
    return error;

  // Written by the runtime before any call: one address per weight.
  auto *slotsType = ArrayType::get(ptr, numWeights);
  auto *weightSlots = new GlobalVariable(
      module, slotsType, /*isConstant=*/false, GlobalValue::InternalLinkage,
      ConstantAggregateZero::get(slotsType), "kiln.weights");

  auto *entryType = StructType::get(context, {ptr, ptr, i32, i32});
  SmallVector<Constant *> entryConstants;
  for (const EntrySignature &entry : entries) {
    std::string error;
    Function *wrapper = defineEntryWrapper(module, entry, *weightSlots, error);
    if (!wrapper)
      return error;
    Constant *name = IRBuilder<>(context).CreateGlobalStringPtr(
        entry.name, "kiln.name." + entry.name, 0, &module);
    entryConstants.push_back(ConstantStruct::get(
        entryType, {name, wrapper, ConstantInt::get(i32, entry.numArgs),
                    ConstantInt::get(i32, entry.numResults)}));
  }
  auto *entryArrayType = ArrayType::get(entryType, entryConstants.size());
  auto *entryTable = new GlobalVariable(
      module, entryArrayType, /*isConstant=*/true,
      GlobalValue::InternalLinkage,
      ConstantArray::get(entryArrayType, entryConstants), "kiln.entries");

  auto *moduleType =
      StructType::get(context, {i32, i32, i32, i32, ptr, ptr, ptr});
  Constant *fields[] = {
      ConstantInt::get(i32, KILN_ABI_VERSION),
      ConstantInt::get(i32, sizeof(kiln_module)),
      ConstantInt::get(i32, entries.size()),
      ConstantInt::get(i32, numWeights),
      entryTable,
      hostSlot,
      numWeights ? static_cast<Constant *>(weightSlots)
                 : ConstantPointerNull::get(cast<PointerType>(ptr))};
  auto *descriptor = new GlobalVariable(
      module, moduleType, /*isConstant=*/true, GlobalValue::ExternalLinkage,
      ConstantStruct::get(moduleType, fields), KILN_MODULE_SYMBOL);
  descriptor->setVisibility(GlobalValue::DefaultVisibility);
  return "";
}

} // namespace kiln

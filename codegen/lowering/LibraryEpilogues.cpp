//===- LibraryEpilogues.cpp - Bias and activation into the GEMM call ------===//
//
// nn.Linear is a matmul, then a bias added to every row, often then an
// activation. Left apart, the bias and the activation are one more pass
// over the product: a loop on the CPU, a kernel on the GPU. GEMM libraries
// apply both to each output tile before storing it (oneDNN's bias and
// post-ops, cuBLASLt's epilogues), so this pass gives them to the library:
// a kiln.matmul whose only use adds a bias vector, directly or as the first
// op of a fusion group, becomes a kiln.matmul_epilogue, which also takes
// the activation after the add where the target's library computes it as
// PyTorch does:
//
// - cuBLASLt: relu (its RELU_BIAS epilogue keeps NaN, as torch.relu does:
//   test/gpu/probe_epilogues.py).
// - oneDNN: tanh, sigmoid and SiLU (the prelude's x * sigmoid(x), its
//   swish). Its relu maps NaN to 0, so relu stays in generated code on the
//   CPU.
//
// Only f32 products: the library computes in f32, and a bf16 Linear
// rounds its product before adding the bias, which the fused call would
// not. Only a bias whose size is known to be the product's last dim: a
// dynamic one might be 1, which broadcasts.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "ir/Activations.h"
#include "ir/KilnDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace kiln::codegen {
namespace {

/// The activation op `op` is, if the target's library applies it.
std::optional<StringRef> libraryActivation(Operation *op, bool gpu) {
  if (gpu)
    return isa<ReluOp>(op) ? std::optional<StringRef>("relu") : std::nullopt;
  if (isa<TanhOp>(op))
    return "tanh";
  if (isa<SigmoidOp>(op))
    return "sigmoid";
  return std::nullopt;
}

/// The ops of an activation the library takes, the last one's result its
/// value, and its kiln.matmul_epilogue name.
struct Activation {
  SmallVector<Operation *, 2> ops;
  StringRef name = "none";
};

/// A matmul's bias add and the activation after it, where they are.
struct Epilogue {
  MatmulOp matmul;
  AddOp add;
  Value bias;            // in the add's block
  Activation activation; // no ops when none is taken
  FusionGroupOp group;   // the group holding the add, or null
};

/// SiLU as the prelude writes it, sum * sigmoid(sum), where those two ops
/// are all that read `sum`: the sigmoid and the multiply, in that order.
std::optional<Activation> siluOf(Value sum) {
  SmallVector<Operation *, 2> users(sum.getUsers());
  if (users.size() != 2)
    return std::nullopt;
  for (Operation *user : users) {
    auto sigmoid = dyn_cast<SigmoidOp>(user);
    if (!sigmoid || !sigmoid.getResult().hasOneUse())
      continue;
    auto mul = dyn_cast<MulOp>(*sigmoid.getResult().user_begin());
    if (mul && llvm::is_contained(users, mul.getOperation()) &&
        llvm::is_contained(mul->getOperands(), sum) &&
        mul.getResult().getType() == sum.getType())
      return Activation{{sigmoid, mul}, "silu"};
  }
  return std::nullopt;
}

/// The activation of the bias add's result `sum` that the target's library
/// applies, if any.
Activation activationOf(Value sum, bool gpu) {
  if (!gpu)
    if (std::optional<Activation> silu = siluOf(sum))
      return *silu;
  if (!sum.hasOneUse())
    return {};
  Operation *next = *sum.user_begin();
  std::optional<StringRef> name = libraryActivation(next, gpu);
  if (!name || next->getResult(0).getType() != sum.getType())
    return {};
  return Activation{{next}, *name};
}

/// The one op that uses `value`, looking into the fusion group it feeds.
std::pair<Operation *, FusionGroupOp> soleUser(Value value) {
  if (!value.hasOneUse())
    return {nullptr, nullptr};
  OpOperand &use = *value.use_begin();
  auto group = dyn_cast<FusionGroupOp>(use.getOwner());
  if (!group)
    return {use.getOwner(), nullptr};
  Value arg = group.getBody().getArgument(use.getOperandNumber());
  if (!arg.hasOneUse())
    return {nullptr, nullptr};
  return {arg.use_begin()->getOwner(), group};
}

bool isF32Tensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType().isF32();
}

std::optional<Epilogue> findEpilogue(MatmulOp matmul, bool gpu) {
  auto result = cast<RankedTensorType>(matmul.getResult().getType());
  if (!isF32Tensor(matmul.getLhs().getType()) ||
      !isF32Tensor(matmul.getRhs().getType()) || !isF32Tensor(result) ||
      result.getRank() == 0 || result.isDynamicDim(result.getRank() - 1))
    return std::nullopt;
  auto [user, group] = soleUser(matmul.getResult());
  auto add = dyn_cast_or_null<AddOp>(user);
  if (!add || add.getResult().getType() != result)
    return std::nullopt;
  Value product = matmul.getResult();
  if (group)
    product = group.getBody().getArgument(
        matmul.getResult().use_begin()->getOperandNumber());
  Value bias = add.getLhs() == product ? add.getRhs() : add.getLhs();
  auto biasType = dyn_cast<RankedTensorType>(bias.getType());
  // In a group, the call outside it needs the bias as one of its inputs,
  // not a value computed in its body.
  if (group && !isa<BlockArgument>(bias))
    return std::nullopt;
  if (bias == product || !biasType || biasType.getRank() != 1 ||
      !biasType.getElementType().isF32() ||
      biasType.getShape()[0] != result.getShape().back())
    return std::nullopt;
  return Epilogue{matmul, add, bias, activationOf(add.getResult(), gpu), group};
}

/// Removes `group`'s inputs that its body no longer reads, and its results
/// that only pass an input through (the input replaces them): codegen
/// expects every result computed in the group. A group left with no result
/// goes.
void pruneGroup(FusionGroupOp group) {
  Block &body = group.getBody().front();
  for (int64_t i = body.getNumArguments() - 1; i >= 0; --i) {
    if (!body.getArgument(i).use_empty())
      continue;
    body.eraseArgument(i);
    group->eraseOperand(i);
  }
  auto yield = cast<YieldOp>(body.getTerminator());
  if (llvm::none_of(yield.getValues(),
                    [](Value v) { return isa<BlockArgument>(v); }))
    return;
  SmallVector<Value> computed, results;
  for (auto [result, value] :
       llvm::zip(group.getResults(), yield.getValues())) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      result.replaceAllUsesWith(group.getInputs()[arg.getArgNumber()]);
      continue;
    }
    computed.push_back(value);
    results.push_back(result);
  }
  if (!computed.empty()) {
    OpBuilder b(group);
    auto rebuilt = b.create<FusionGroupOp>(
        group.getLoc(), ValueRange(computed).getTypes(), group.getInputs());
    rebuilt.getBody().takeBody(group.getBody());
    yield->setOperands(computed);
    for (auto [old, fresh] : llvm::zip(results, rebuilt.getResults()))
      old.replaceAllUsesWith(fresh);
  }
  group.erase();
}

void fuse(Epilogue e) {
  SmallVector<Operation *, 2> &activation = e.activation.ops;
  Operation *last =
      activation.empty() ? e.add.getOperation() : activation.back();
  Value bias = e.bias;
  if (e.group)
    bias = e.group.getInputs()[cast<BlockArgument>(bias).getArgNumber()];
  OpBuilder b(e.group ? e.group.getOperation() : e.add.getOperation());
  auto fused = b.create<MatmulEpilogueOp>(
      e.matmul.getLoc(), e.matmul.getResult().getType(), e.matmul.getLhs(),
      e.matmul.getRhs(), bias, b.getStringAttr(e.activation.name));
  Value replacement = fused.getResult();
  if (e.group) {
    e.group->insertOperands(e.group->getNumOperands(), fused.getResult());
    replacement =
        e.group.getBody().addArgument(fused.getType(), e.matmul.getLoc());
  }
  last->getResult(0).replaceAllUsesWith(replacement);
  for (Operation *op : llvm::reverse(activation))
    op->erase();
  e.add.erase();
  if (e.group)
    pruneGroup(e.group);
  e.matmul.erase();
}

struct LibraryEpiloguesPass
    : public PassWrapper<LibraryEpiloguesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LibraryEpiloguesPass)

  LibraryEpiloguesPass() = default;
  LibraryEpiloguesPass(const LibraryEpiloguesPass &other)
      : PassWrapper(other) {}
  explicit LibraryEpiloguesPass(bool gpu) { gpu_ = gpu; }

  Option<bool> gpu_{*this, "gpu",
                    llvm::cl::desc("The library is the GPU's (cuBLASLt), "
                                   "else the CPU's (oneDNN)"),
                    llvm::cl::init(false)};

  StringRef getArgument() const final { return "kiln-library-epilogues"; }
  StringRef getDescription() const final {
    return "Give a matmul's bias add, and the activation after it, to the "
           "GEMM library call";
  }

  void runOnOperation() override {
    SmallVector<MatmulOp> matmuls;
    getOperation().walk([&](MatmulOp op) { matmuls.push_back(op); });
    for (MatmulOp matmul : matmuls)
      if (std::optional<Epilogue> epilogue = findEpilogue(matmul, gpu_))
        fuse(*epilogue);
  }
};

} // namespace
} // namespace kiln::codegen

std::unique_ptr<mlir::Pass> kiln::createLibraryEpiloguesPass(bool gpu) {
  return std::make_unique<codegen::LibraryEpiloguesPass>(gpu);
}

//===- ChannelsLast.cpp - convolutions and what they feed, in N x H x W x C ===//
//
// oneDNN's convolutions compute in a layout of their own choosing: for
// f32 layers of 16 channels or more with AVX-512, channels last
// (N x H x W x C). Handed PyTorch's N x C x H x W, the kernel library
// reorders the input into that layout and the output back, on every call.
// Between two convolutions the two reorders undo each other, and they are
// not cheap: in a ResNet basic block of 64 channels at 56 x 56 (batch 1,
// one thread), the four of them took 0.23 ms of the block's 2.03.
//
// So this pass keeps such convolutions and the elementwise ops between
// them in channels-last order:
// 1. Each eligible kiln.conv2d becomes permute -> conv2d {channels_last}
//    -> permute: the permutes to and from N x H x W x C are where the
//    library's reorders were.
// 2. A permute back to N x C x H x W sinks through the elementwise ops that
//    read it, which then compute in N x H x W x C; their other operands
//    are permuted to match (a per-channel [C, 1, 1] becomes [1, 1, 1, C]).
// 3. A permute to channels last of a permute back cancels: that is a
//    reorder pair gone. What is left are the permutes at the edges of a
//    chain (the entry's input, its result, a pooling), each a transpose
//    like the reorder it replaces.
//
// An operand of an op to sink through is permuted only when that costs
// nothing: it has one dim that is not 1 (a per-channel [C, 1, 1], whose
// permute moves no data), or it is permuted that way already for another
// reader (a residual block's input, which its first convolution reads
// too). Otherwise the permute stays above the op.
//
// Only where every target is an AVX-512 CPU, by default
// (PipelineOptions::channelsLast, kiln compile --conv-layout): with AVX2
// alone oneDNN computes in blocks of 8 channels instead, and the CUDA
// backend's convolutions have not run in this layout.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/Elementwise.h"
#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/IR/Dominance.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SetVector.h"

namespace kiln {
#define GEN_PASS_DEF_CHANNELSLAST
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// Channels from which oneDNN computes a convolution in a blocked or
/// channels-last layout: its vector width, as the runtime's kFewChannels
/// (OneDnnConv.cpp). Below it, the runtime reads and writes N x C x H x W
/// as it lies, and codegen generates some such layers itself.
constexpr int64_t kBlockChannels = 16;

/// `type` with its dims in `dims` order: kiln.permute's own rule.
RankedTensorType permuted(Type type, ArrayRef<int64_t> dims) {
  return cast<RankedTensorType>(inferPermuteType(type, dims, nullptr));
}

Value permute(OpBuilder &b, Location loc, Value value,
              ArrayRef<int64_t> dims) {
  return b.create<PermuteOp>(loc, permuted(value.getType(), dims), value,
                             dims);
}

/// A convolution the library computes channels last: f32, without
/// groups, and wide enough on both sides (kBlockChannels). Batch and
/// image sizes may be dynamic: permuting every operand of an elementwise
/// op alike keeps its broadcasts as they were, whatever the sizes.
bool isEligible(Conv2dOp conv) {
  if (conv.getChannelsLast() || conv.getGroups() != 1 ||
      !conv.getResult().getType().getElementType().isF32() ||
      !conv.getWeight().getType().hasStaticShape())
    return false;
  ArrayRef<int64_t> weight = conv.getWeight().getType().getShape();
  return weight[0] >= kBlockChannels && weight[1] >= kBlockChannels;
}

/// A permute of `value` to channels last that comes before `op`, if one
/// was made already.
std::optional<Value> existingPermute(Value value, Operation *op,
                                     DominanceInfo &dominance) {
  for (Operation *user : value.getUsers())
    if (auto existing = dyn_cast<PermuteOp>(user);
        existing && existing.getDims() == ArrayRef<int64_t>(kToChannelsLast) &&
        dominance.properlyDominates(existing.getOperation(), op))
      return existing.getResult();
  return std::nullopt;
}

/// Step 1: permute -> conv2d {channels_last} -> permute. Returns the
/// permute back.
PermuteOp toChannelsLast(Conv2dOp conv, DominanceInfo &dominance) {
  OpBuilder b(conv);
  Location loc = conv.getLoc();
  // Two convolutions of one input share its permute.
  std::optional<Value> input =
      existingPermute(conv.getInput(), conv, dominance);
  if (!input)
    input = permute(b, loc, conv.getInput(), kToChannelsLast);
  auto inner = b.create<Conv2dOp>(
      loc, permuted(conv.getResult().getType(), kToChannelsLast), *input,
      conv.getWeight(), conv.getStride(), conv.getPadding(),
      conv.getDilation(), conv.getGroups(), /*channels_last=*/true);
  auto back = cast<PermuteOp>(
      permute(b, loc, inner.getResult(), kToChannelsFirst).getDefiningOp());
  conv.getResult().replaceAllUsesWith(back.getResult());
  conv.erase();
  return back;
}

/// Sinks permutes back to N x C x H x W through elementwise ops (step 2).
class Sinking {
public:
  explicit Sinking(DominanceInfo &dominance) : dominance(dominance) {}

  void run(SmallVector<PermuteOp> worklist) {
    while (!worklist.empty()) {
      PermuteOp back = worklist.pop_back_val();
      // A user reading it twice (x * x) is sunk once.
      llvm::SetVector<Operation *> users;
      for (Operation *user : back.getResult().getUsers())
        users.insert(user);
      for (Operation *user : users)
        if (std::optional<PermuteOp> sunk = sinkThrough(user))
          worklist.push_back(*sunk);
    }
  }

private:
  /// `operand` in channels-last order, if that is free (see the header);
  /// the ops made for it go into `made`.
  std::optional<Value> channelsLast(OpBuilder &b, Operation *op, Value operand,
                                    SmallVector<Operation *> &made) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    // Scalars and single elements broadcast in any layout.
    if (!type || (type.hasStaticShape() && type.getNumElements() == 1))
      return operand;
    if (auto back = operand.getDefiningOp<PermuteOp>();
        back && back.getDims() == ArrayRef<int64_t>(kToChannelsFirst))
      return back.getInput();
    if (type.getRank() > 4)
      return std::nullopt;
    // A tensor of one dim that is not 1 ([C, 1, 1], a row) moves no data
    // when permuted. Broadcasting aligns dims from the right: [C, 1, 1] is
    // [1, C, 1, 1].
    if (llvm::count_if(type.getShape(), [](int64_t d) { return d != 1; }) <=
        1) {
      Location loc = op->getLoc();
      Value value = operand;
      for (int64_t rank = type.getRank(); rank < 4; ++rank) {
        auto current = cast<RankedTensorType>(value.getType());
        SmallVector<int64_t> shape = {1};
        llvm::append_range(shape, current.getShape());
        value = b.create<UnsqueezeOp>(
            loc, RankedTensorType::get(shape, type.getElementType()), value,
            0);
        made.push_back(value.getDefiningOp());
      }
      value = permute(b, loc, value, kToChannelsLast);
      made.push_back(value.getDefiningOp());
      return value;
    }
    return existingPermute(operand, op, dominance);
  }

  /// Rebuilds elementwise `op` in channels-last order behind a permute
  /// back, which it returns; nothing where an operand is not free.
  std::optional<PermuteOp> sinkThrough(Operation *op) {
    if (!isElementwise(op))
      return std::nullopt;
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    if (resultType.getRank() != 4)
      return std::nullopt;
    OpBuilder b(op);
    SmallVector<Value> operands;
    SmallVector<Operation *> made;
    for (Value operand : op->getOperands()) {
      std::optional<Value> value = channelsLast(b, op, operand, made);
      if (!value) {
        for (Operation *dead : llvm::reverse(made))
          dead->erase();
        return std::nullopt;
      }
      operands.push_back(*value);
    }
    OperationState state(op->getLoc(), op->getName(), operands,
                         {permuted(resultType, kToChannelsLast)},
                         op->getAttrs());
    Operation *inner = b.create(state);
    auto back = cast<PermuteOp>(
        permute(b, op->getLoc(), inner->getResult(0), kToChannelsFirst)
            .getDefiningOp());
    op->getResult(0).replaceAllUsesWith(back.getResult());
    op->erase();
    return back;
  }

  DominanceInfo &dominance;
};

/// Step 3: permute(permute(x, to first), to last) is x; permutes left
/// unread go.
void cancelPairs(Operation *root) {
  SmallVector<PermuteOp> permutes;
  root->walk([&](PermuteOp op) { permutes.push_back(op); });
  for (PermuteOp op : permutes)
    if (op.getDims() == ArrayRef<int64_t>(kToChannelsLast))
      if (auto back = op.getInput().getDefiningOp<PermuteOp>();
          back && back.getDims() == ArrayRef<int64_t>(kToChannelsFirst))
        op.getResult().replaceAllUsesWith(back.getInput());
  bool erased = true;
  while (erased) {
    erased = false;
    root->walk([&](Operation *op) {
      if (isa<PermuteOp, UnsqueezeOp>(op) && op->use_empty()) {
        op->erase();
        erased = true;
      }
    });
  }
}

struct ChannelsLastPass : kiln::impl::ChannelsLastBase<ChannelsLastPass> {
  void runOnOperation() override {
    SmallVector<Conv2dOp> convs;
    getOperation()->walk([&](Conv2dOp conv) {
      if (isEligible(conv))
        convs.push_back(conv);
    });
    if (convs.empty())
      return;
    DominanceInfo dominance(getOperation());
    SmallVector<PermuteOp> backs;
    for (Conv2dOp conv : convs)
      backs.push_back(toChannelsLast(conv, dominance));
    Sinking(dominance).run(std::move(backs));
    cancelPairs(getOperation());
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createChannelsLastPass() {
  return std::make_unique<ChannelsLastPass>();
}

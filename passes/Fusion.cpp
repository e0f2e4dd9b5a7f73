//===- Fusion.cpp - group elementwise chains into kiln.fusion_group -------===//
//
// Why: every elementwise op lowers to its own loop nest, which writes its
// whole result to memory for the next op to read back. TorchScript's fuser
// fixes this at run time with prim::FusionGroup; kiln does it ahead of time.
// A group marks ops that codegen compiles into one loop nest, so values
// inside a group live in registers only.
//
// How, per block:
// 1. Split the block into segments at every op that has side effects or
//    regions (print, assert, rand, calls, loops, ifs) and at the terminator.
//    Groups stay inside a segment, so fusion never moves work across a side
//    effect or into or out of control flow.
// 2. Visit the ops of a segment in order. An elementwise op joins the groups
//    of the fusible ops that produce its operands, merging them, as long as
//    the merged set stays convex: no path may leave the set and come back
//    (a group is computed at one point, so such a path would be a cycle).
//    Otherwise it starts a group of its own. A group stops growing at
//    kMaxGroupOps ops, which bounds the cost of lowering it.
// 3. A reduction (sum, mean, amax, amin) joins the group of the chain it
//    reduces in two cases. When every value of the group is used only
//    inside it, the reduction ends the group: it consumes the chain inside
//    one loop nest, and nothing joins the group after it. When the chain's
//    other readers are elementwise ops that also read the reduction (a
//    normalization: softmax's exp(x - m) / sum, layer norm's x - mean),
//    the group stays open for them, so that codegen computes the chain,
//    its reduction and its consumers over one tile of rows while they are
//    in cache, instead of writing the chain to memory and reading it back.
//    That holds for rows of a static length up to kMaxNormalizedRow.
// 4. Each group of two or more ops becomes a kiln.fusion_group whose inputs
//    are the values it reads from outside and whose results are the values
//    used outside it. The segment is then sorted topologically, which is
//    safe because it holds no side effects.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/Elementwise.h"
#include "ir/KilnDialect.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace kiln {
#define GEN_PASS_DEF_FUSION
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// The most ops one group holds. Lowering a group fuses its loop nests one
/// producer at a time, cloning the growing body each time, so its cost is
/// quadratic in the group's size; the cap keeps compile time linear in the
/// program (a 10,000-op chain is 79 groups). A loop body of 128 ops
/// already keeps every value in registers; longer chains gain nothing.
constexpr size_t kMaxGroupOps = 128;

/// The most points a normalization's reduction may reduce and still share
/// a group with the reduction's readers (isShortRowReduction): 16K f32,
/// 64 KB, the most codegen keeps on a tile's stack.
constexpr int64_t kMaxNormalizedRow = 16384;

/// Reductions that are one pass over their input. var needs two passes
/// (the mean first), max_dim two results; neither ends a group.
bool isFusibleReduction(Operation *op) {
  return isa<SumOp, MeanOp, AMaxOp, AMinOp>(op);
}

/// Ops that end a segment: fusion may reorder pure ops within a segment but
/// never moves anything across these.
bool isSegmentBoundary(Operation *op) {
  // A group formed earlier is pure straight-line code like its members.
  if (isa<FusionGroupOp>(op))
    return false;
  return op->hasTrait<OpTrait::IsTerminator>() || op->getNumRegions() != 0 ||
         !isMemoryEffectFree(op);
}

/// The grouping of one block's ops.
class BlockFusion {
public:
  explicit BlockFusion(Block &block) : block(block) {}

  void run() {
    unsigned segment = 0;
    for (Operation &op : block) {
      segmentOf[&op] = segment;
      if (isSegmentBoundary(&op)) {
        ++segment;
        continue;
      }
      if (isElementwise(&op))
        addElementwise(&op);
      else if (isFusibleReduction(&op))
        addReduction(&op);
    }
    materialize();
  }

private:
  /// The fusible op in this block and segment that produces `v`, if any.
  Operation *fusibleProducer(Value v, Operation *user) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &block || !isCandidate(def) ||
        segmentOf[def] != segmentOf[user])
      return nullptr;
    return def;
  }

  /// Was `op` seen as fusible (it is in a group, maybe of its own)?
  bool isCandidate(Operation *op) {
    return groups.findValue(op) != groups.end();
  }

  /// The members of the group `op` belongs to.
  SmallVector<Operation *> membersOf(Operation *op) {
    auto leader = groups.findValue(groups.getLeaderValue(op));
    return SmallVector<Operation *>(groups.member_begin(leader),
                                    groups.member_end());
  }

  /// A set is convex when no operand of a member comes from outside the set
  /// through a path that starts inside it, counting the groups formed so
  /// far as single nodes. The search walks operands back from the members,
  /// with a worklist (a chain of 10,000 ops must not recurse 10,000 deep),
  /// and stops at ops of other segments and at ops before the set's first
  /// member whose group is too, which cannot depend on any member: so it
  /// visits mostly the span of the block the set covers.
  bool isConvex(const llvm::SmallPtrSetImpl<Operation *> &set) {
    Operation *first = *set.begin();
    for (Operation *member : set)
      if (member->isBeforeInBlock(first))
        first = member;
    // Whether a path back from `def` may reach the set: it is in the same
    // segment, and it or a member of its group comes after the set's
    // first member (an op can only depend on ops before it, but a group
    // runs after all of its members' inputs).
    auto mayReach = [&](Operation *def, Operation *user) {
      if (!def || def->getBlock() != &block ||
          segmentOf[def] != segmentOf[user])
        return false;
      if (!def->isBeforeInBlock(first))
        return true;
      return isCandidate(def) &&
             llvm::any_of(membersOf(def), [&](Operation *peer) {
               return !peer->isBeforeInBlock(first);
             });
    };
    llvm::SmallPtrSet<Operation *, 16> visited;
    SmallVector<Operation *> worklist;
    for (Operation *member : set)
      for (Value operand : member->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!set.contains(def) && mayReach(def, member) &&
            visited.insert(def).second)
          worklist.push_back(def);
      }
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      // A group becomes one op: it runs after every input of every member,
      // so a path that reaches one member continues from all of them. Two
      // groups that are each convex could otherwise need each other.
      if (isCandidate(op))
        for (Operation *peer : membersOf(op))
          if (visited.insert(peer).second)
            worklist.push_back(peer);
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!mayReach(def, op))
          continue;
        if (set.contains(def))
          return false;
        if (visited.insert(def).second)
          worklist.push_back(def);
      }
    }
    return true;
  }

  void addElementwise(Operation *op) {
    groups.insert(op);
    llvm::SmallPtrSet<Operation *, 16> set = {op};
    for (Value operand : op->getOperands()) {
      Operation *producer = fusibleProducer(operand, op);
      if (!producer || closed.contains(groups.getLeaderValue(producer)) ||
          set.contains(producer))
        continue;
      llvm::SmallPtrSet<Operation *, 16> merged = set;
      for (Operation *member : membersOf(producer))
        merged.insert(member);
      if (merged.size() > kMaxGroupOps || !isConvex(merged))
        continue;
      set = std::move(merged);
      groups.unionSets(op, producer);
    }
  }

  void addReduction(Operation *op) {
    groups.insert(op);
    Operation *producer = fusibleProducer(op->getOperand(0), op);
    if (!producer || closed.contains(groups.getLeaderValue(producer)))
      return;
    SmallVector<Operation *> members = membersOf(producer);
    llvm::SmallPtrSet<Operation *, 16> set(members.begin(), members.end());
    set.insert(op);
    if (members.size() + 1 > kMaxGroupOps)
      return;
    SmallVector<Operation *> outsideUsers;
    for (Operation *member : members)
      for (Operation *user : member->getUsers())
        if (!set.contains(user))
          outsideUsers.push_back(user);
    if (outsideUsers.empty()) {
      groups.unionSets(op, producer);
      closed.insert(groups.getLeaderValue(op));
      return;
    }
    // Otherwise the chain is written to memory anyway unless its readers
    // join too, and a loop nest that both reduces and writes a full-size
    // result gains nothing.
    if (isShortRowReduction(op) &&
        llvm::all_of(outsideUsers, [&](Operation *user) {
          // Ops after `op` have no segment yet: its segment ends at the
          // next boundary.
          return isElementwise(user) && user->getBlock() == &block &&
                 user->isBeforeInBlock(segmentEnd(op)) && dependsOn(user, op);
        }))
      groups.unionSets(op, producer);
  }

  /// Whether the reduction `op` reduces a static number of points no
  /// larger than kMaxNormalizedRow. A normalization's group keeps a row
  /// of its chain per tile (softmax's exp, which the sum and the division
  /// both read), on the stack; a longer or dynamic row would need the
  /// heap, which keeps the tiles off the runtime's threads, and then two
  /// groups are faster.
  static bool isShortRowReduction(Operation *op) {
    auto input = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    auto dims = op->getAttrOfType<DenseI64ArrayAttr>("dims");
    if (!input || !dims)
      return false;
    int64_t points = 1;
    for (int64_t d = 0; d < input.getRank(); ++d) {
      if (!dims.empty() && !llvm::is_contained(dims.asArrayRef(), d))
        continue;
      if (input.isDynamicDim(d))
        return false;
      points *= input.getDimSize(d);
      if (points > kMaxNormalizedRow)
        return false;
    }
    return true;
  }

  /// Whether `user` reads `op`'s result through elementwise ops of the
  /// block (the path by which a normalization's consumers reach its
  /// reduction). The search is bounded by the group size cap: a longer
  /// path could not join the group anyway.
  bool dependsOn(Operation *user, Operation *op) {
    llvm::SmallPtrSet<Operation *, 16> visited;
    SmallVector<Operation *> worklist = {user};
    while (!worklist.empty() && visited.size() <= kMaxGroupOps) {
      Operation *next = worklist.pop_back_val();
      for (Value operand : next->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def == op)
          return true;
        if (def && def->getBlock() == &block && isElementwise(def) &&
            def->isBeforeInBlock(next) && op->isBeforeInBlock(def) &&
            visited.insert(def).second)
          worklist.push_back(def);
      }
    }
    return false;
  }

  /// Replaces each group of two or more ops by one kiln.fusion_group.
  void materialize() {
    // Groups in the order of their first member, for deterministic output.
    llvm::MapVector<Operation *, SmallVector<Operation *>> byLeader;
    for (Operation &op : block)
      if (isCandidate(&op))
        byLeader[groups.getLeaderValue(&op)].push_back(&op);

    llvm::SetVector<Operation *> boundaries;
    for (auto &[leader, members] : byLeader) {
      if (members.size() < 2)
        continue;
      boundaries.insert(segmentEnd(members.back()));
      createGroup(members);
    }
    for (Operation *end : boundaries) {
      Block::iterator begin = block.begin();
      for (Operation *prev = end->getPrevNode(); prev;
           prev = prev->getPrevNode())
        if (isSegmentBoundary(prev)) {
          begin = std::next(prev->getIterator());
          break;
        }
      bool sorted = sortTopologically(&block, {begin, end->getIterator()});
      assert(sorted && "fusion groups must be convex");
      (void)sorted;
    }
  }

  /// The boundary op that ends the segment holding `op`.
  Operation *segmentEnd(Operation *op) {
    while (!isSegmentBoundary(op))
      op = op->getNextNode();
    return op;
  }

  void createGroup(ArrayRef<Operation *> members) {
    llvm::SmallPtrSet<Operation *, 16> set(members.begin(), members.end());
    llvm::SetVector<Value> inputs;
    SmallVector<Value> outputs;
    for (Operation *member : members) {
      for (Value operand : member->getOperands())
        if (!set.contains(operand.getDefiningOp()))
          inputs.insert(operand);
      for (Value result : member->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return !set.contains(user);
            }))
          outputs.push_back(result);
    }

    // The group goes where its segment ends; the topological sort moves it
    // (and its users) to a valid place.
    Operation *last = members.back();
    OpBuilder builder(segmentEnd(last));
    SmallVector<Location> locations;
    for (Operation *member : members)
      locations.push_back(member->getLoc());
    Location loc = builder.getFusedLoc(locations);
    SmallVector<Type> resultTypes;
    for (Value output : outputs)
      resultTypes.push_back(output.getType());
    auto group = builder.create<FusionGroupOp>(loc, resultTypes,
                                               inputs.getArrayRef());
    Block *body = builder.createBlock(&group.getBody());
    IRMapping mapping;
    for (Value input : inputs)
      mapping.map(input, body->addArgument(input.getType(), input.getLoc()));
    for (Operation *member : members)
      builder.clone(*member, mapping);
    SmallVector<Value> yielded;
    for (Value output : outputs)
      yielded.push_back(mapping.lookup(output));
    builder.create<YieldOp>(loc, yielded);

    for (auto [output, result] : llvm::zip(outputs, group.getResults()))
      output.replaceUsesWithIf(result, [&](OpOperand &use) {
        return !set.contains(use.getOwner());
      });
    for (Operation *member : llvm::reverse(members))
      member->erase();
  }

  Block &block;
  llvm::DenseMap<Operation *, unsigned> segmentOf;
  llvm::EquivalenceClasses<Operation *> groups;
  llvm::SmallPtrSet<Operation *, 8> closed; // leaders of groups with a sink
};

struct FusionPass : public kiln::impl::FusionBase<FusionPass> {
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!isa<FusionGroupOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    for (Block *block : blocks)
      BlockFusion(*block).run();
  }
};

} // namespace

std::unique_ptr<Pass> kiln::createFusionPass() {
  return std::make_unique<FusionPass>();
}

//===- VectorizeTiles.cpp - Tile bodies as vector-dialect code ------------===//
//
// The second half of the codegen strategy (after TileFusionGroups.cpp):
// each elementwise or row-reducing linalg op, inside a tile or not, is cut
// along its innermost loop into chunks of `width` elements, and each chunk
// becomes vector-dialect code (MLIR's linalg vectorizer):
//
//   * Elementwise ops (and ops whose reductions are over outer loops, a
//     column sum) are tiled by 1 on every outer loop and by `width` on the
//     innermost; each chunk reads, computes and writes vector<1x..xW>. A
//     static innermost extent shorter than `width` (a pool's row of 15)
//     is one chunk of that length, down to kMinChunk elements.
//   * Row reductions (the innermost loop is the only reduction) are tiled
//     by 1 on their rows. A row of one register to `width` is one vector; a row
//     whose length is a multiple of `width` is split into `width` partial
//     accumulators (scf::tileReductionUsingScf): the loop over the row
//     combines whole vectors into a vector accumulator (in registers once
//     loop-invariant-subset-hoisting has run), and one horizontal
//     reduction per row merges it. Other rows are left to LLVM's loop
//     vectorizer.
//   * An elementwise chunk that is cut short (a row of 1023, a dynamic
//     extent) is peeled off its loop and stays scalar code: the loop holds
//     only whole chunks, each of a static shape once the loop's bounds are
//     folded. (Masked chunks would avoid the scalar remainder, but MLIR
//     19's lowering of masked transfers makes mask types that its own
//     verifier rejects.)
//
// `width` is four of the target's vector registers (kRegistersPerChunk;
// CpuPipeline.cpp gives the register's lanes), so that a reduction
// carries four independent accumulators, and an elementwise loop four
// independent chains, as LLVM's own loop vectorizer would interleave.
//
// An op the vectorizer cannot handle (a gather, an operand read across the
// innermost loop, a conversion between types) is left as it is: LLVM's
// loop vectorizer still sees its loops.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/strategy/Tiling.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace kiln::codegen {
namespace {

enum class Kind { Elementwise, RowReduction, Transpose, Unsupported };

/// A chunk is this many of the target's vector registers: as many
/// independent accumulators (or chains) as LLVM's loop vectorizer
/// interleaves on x86, which hides the latency of a floating-point add.
constexpr int64_t kRegistersPerChunk = 4;

/// The shortest innermost dim an elementwise op is vectorized along. Rows
/// shorter than a register are still worth a vector each: a max pool's
/// rows of 15 and 6 took 66 and 27 us as scalar code at LeNet's batch 64,
/// and 21 and 14 us as vectors (with DeinterleaveStridedRead), and
/// tanh(x) * 2 on [8192, 7] 100 us against 23.
constexpr int64_t kMinChunk = 4;

/// How `op` is vectorized. Every operand must be read along the innermost
/// loop contiguously (that loop is its last index) or not at all, so that
/// a chunk is one contiguous vector or a broadcast; a transpose of the
/// innermost dims is cut into square blocks instead.
Kind classify(linalg::LinalgOp op) {
  if (transposedLoop(op))
    return Kind::Transpose;
  // A transpose that keeps the innermost dim in place (attention's
  // [B, T, H, D] to [B, H, T, D]) copies contiguous rows: elementwise.
  if (!isa<linalg::GenericOp, linalg::FillOp, linalg::TransposeOp>(op) ||
      !op.hasPureTensorSemantics() || op.getNumLoops() == 0)
    return Kind::Unsupported;
  // One element type throughout, f32 or an integer. Conversions in a body
  // and the math of other float types are left to LLVM's loop vectorizer:
  // MLIR 19's math-legalize-to-f32 widens f64 vector math as if it were
  // f16, and f64 math calls libm, which has no vector functions.
  Type element;
  for (Value operand : op->getOperands()) {
    Type type = getElementTypeOrSelf(operand.getType());
    if ((element && type != element) || !(type.isF32() || type.isInteger()))
      return Kind::Unsupported;
    element = type;
  }
  bool converts = false;
  op->walk([&](Operation *inner) {
    converts |= isa<CastOpInterface>(inner);
  });
  if (converts)
    return Kind::Unsupported;
  unsigned last = op.getNumLoops() - 1;
  for (AffineMap map : op.getIndexingMapsArray()) {
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return Kind::Unsupported;
    for (unsigned r = 0; r < map.getNumResults(); ++r)
      if (map.getResult(r).isFunctionOfDim(last) &&
          r + 1 != map.getNumResults())
        return Kind::Unsupported;
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators[last] == utils::IteratorType::parallel)
    return Kind::Elementwise;
  if (op.getNumReductionLoops() == 1)
    return Kind::RowReduction;
  return Kind::Unsupported;
}

/// Vector sizes for an op whose outer loops are tiled by 1: 1 for each of
/// them and `width` (or the loop's static extent, if smaller) innermost.
/// Empty when a loop is statically empty.
SmallVector<int64_t> chunkSizes(linalg::LinalgOp op, int64_t width) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> sizes(ranges.size(), 1);
  for (int64_t range : ranges)
    if (range == 0)
      return {};
  int64_t inner = ranges.back();
  // An innermost dim of a few elements (pairwise distance's 2 coordinates)
  // would make a vector op per couple of elements; LLVM unrolls such a
  // loop and vectorizes the one around it instead.
  if (!ShapedType::isDynamic(inner) && inner < kMinChunk)
    return {};
  sizes.back() = ShapedType::isDynamic(inner) ? width : std::min(inner, width);
  return sizes;
}

/// Whether the vectorizer takes `op`'s body and maps (checked before it is
/// cut, with the vector sizes that cover it whole).
bool isVectorizable(linalg::LinalgOp op) {
  SmallVector<int64_t> whole = op.getStaticLoopRanges();
  for (int64_t &size : whole)
    if (ShapedType::isDynamic(size))
      size = 1;
  return succeeded(linalg::vectorizeOpPrecondition(op, whole));
}

/// Marks a chunk to vectorize once canonicalization has made its shape
/// static (VectorizeTilesPass::runOnOperation).
constexpr llvm::StringLiteral kChunkAttr = "kiln.vector_chunk";

void markChunk(Operation *op) {
  op->setAttr(kChunkAttr, UnitAttr::get(op->getContext()));
}

/// Peels the last, short iteration off `loop`, which steps along a dim of
/// the chunks inside it, when the step may not divide that dim: the loop
/// then holds only whole chunks, and the short ones stay scalar code.
void peelShortIteration(RewriterBase &rewriter, scf::ForOp loop) {
  // A loop over rows (step 1) never has a short iteration; nor does a
  // loop whose step divides its static extent.
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  if ((step && *step == 1) ||
      (step && lower && upper && (*upper - *lower) % *step == 0))
    return;
  scf::ForOp shortChunk;
  if (failed(scf::peelForLoopAndSimplifyBounds(rewriter, loop, shortChunk)))
    return;
  shortChunk.walk([](Operation *op) { op->removeAttr(kChunkAttr); });
}

/// Peels the loop around `chunk` that steps along its innermost dim.
void peelShortChunk(RewriterBase &rewriter, Operation *chunk) {
  if (auto loop = chunk->getParentOfType<scf::ForOp>())
    peelShortIteration(rewriter, loop);
}

/// When `op`'s iteration space has two or more dynamic extents, puts it
/// in the else branch of `scf.if (some extent is 0)`, whose then branch
/// gives its inits back (what an op with no points computes): the loops
/// cutting makes would otherwise run 2^40 times around an empty inner
/// loop for a [2^40, 0] input. (kiln-skip-empty-loop-nests does the same
/// for the linalg ops that reach it.)
void guardEmptySpace(RewriterBase &rewriter, linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::count_if(ranges, ShapedType::isDynamic) < 2)
    return;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
  Value empty;
  for (auto [range, loop] :
       llvm::zip(ranges, op.createLoopRanges(rewriter, loc))) {
    if (!ShapedType::isDynamic(range))
      continue;
    Value extent = getValueOrCreateConstantIndexOp(rewriter, loc, loop.size);
    Value isZero = rewriter.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq, extent, zero);
    empty = empty ? rewriter.create<arith::OrIOp>(loc, empty, isZero)
                  : isZero;
  }
  auto guard = rewriter.create<scf::IfOp>(loc, op->getResultTypes(), empty,
                                          /*withElseRegion=*/true);
  rewriter.setInsertionPointToStart(guard.thenBlock());
  rewriter.create<scf::YieldOp>(loc, op.getDpsInits());
  rewriter.setInsertionPointToStart(guard.elseBlock());
  auto yield = rewriter.create<scf::YieldOp>(loc, op->getResults());
  for (auto [result, guarded] : llvm::zip(op->getResults(), guard.getResults()))
    rewriter.replaceAllUsesExcept(result, guarded, yield);
  op->moveBefore(yield);
}

/// Tiles `op` by `sizes` (0: not tiled) into scf.for loops; returns the
/// tiled op, or null when tiling failed (the op is then unchanged).
Operation *tileInLoops(RewriterBase &rewriter, linalg::LinalgOp op,
                       ArrayRef<int64_t> sizes) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), sizes));
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return nullptr;
  rewriter.replaceOp(op, tiled->replacements);
  return tiled->tiledOps.front();
}

void cutElementwise(RewriterBase &rewriter, linalg::LinalgOp op,
                    int64_t width) {
  SmallVector<int64_t> sizes = chunkSizes(op, width);
  if (sizes.empty() || !isVectorizable(op))
    return;
  guardEmptySpace(rewriter, op);
  Operation *chunk = tileInLoops(rewriter, op, sizes);
  if (!chunk)
    return;
  markChunk(chunk);
  peelShortChunk(rewriter, chunk);
}

void cutRowReduction(RewriterBase &rewriter, linalg::LinalgOp op,
                     int64_t width) {
  SmallVector<int64_t> sizes = chunkSizes(op, width);
  // A row whose length is not a static multiple of `width` (nor at most
  // `width`) would need a partial accumulator in memory for its short last
  // chunk: it stays with LLVM's loop vectorizer.
  int64_t extent = op.getStaticLoopRanges().back();
  bool shortRow = !ShapedType::isDynamic(extent) && extent <= width;
  // A row shorter than one register stays with LLVM too: log_softmax over
  // [8192, 10] took 114 us with a horizontal reduction per row of 10
  // against 82 us.
  if (sizes.empty() || extent < width / kRegistersPerChunk || !isVectorizable(op) ||
      (!shortRow && (ShapedType::isDynamic(extent) || extent % width != 0)))
    return;
  guardEmptySpace(rewriter, op);
  // One row at a time.
  SmallVector<int64_t> rows(sizes.size(), 1);
  rows.back() = 0;
  Operation *row = tileInLoops(rewriter, op, rows);
  if (!row)
    return;
  if (shortRow) {
    // A short row is one vector: a single horizontal reduction.
    markChunk(row);
    return;
  }
  // A long row: `width` partial results, combined a vector at a time over
  // the row, then merged.
  SmallVector<OpFoldResult> split(sizes.size(), rewriter.getIndexAttr(0));
  split.back() = rewriter.getIndexAttr(width);
  rewriter.setInsertionPoint(row);
  FailureOr<scf::SCFReductionTilingResult> partial =
      scf::tileReductionUsingScf(
          rewriter, cast<PartialReductionOpInterface>(row), split);
  // (It replaces `row` itself.)
  if (failed(partial))
    return;
  for (Value init : partial->initialValues)
    if (Operation *fill = init.getDefiningOp<linalg::FillOp>())
      markChunk(fill);
  for (Operation *merge : partial->mergeOps)
    markChunk(merge);
  for (Operation *tiled : partial->parallelTiledOps)
    markChunk(tiled);
  // The accumulator's read and write in each iteration become a vector
  // carried by the loop, in registers, once the pipeline's
  // loop-invariant-subset-hoisting runs (after canonicalization has
  // folded the slices around them).
}

// A transpose's blocks (kTransposeBlock, Tiling.h) are 16 32-bit elements
// a side, a 64-byte cache line per row read and written, and its short
// ends are cut again by half of that. Measured at one thread: 1024 x 1024
// took 200 us in blocks of 16 and 358 in blocks of 8; [1, 64, 56, 56] from
// [1, 56, 56, 64], whose 56 leaves 8, 38 us in blocks of 16 with a scalar
// end, 28 in blocks of 8, 34 in blocks of 16 with an end of 8.

/// A transpose of the innermost dims reads its input along one loop and
/// writes its output along another, so a chunk along either alone would
/// read or write lane by lane. It is cut into `side` x `side` blocks over
/// those two loops instead (every other loop by 1): a block is read as
/// `side` contiguous vectors, transposed in registers (LowerVectors.cpp
/// lowers vector.transpose to shuffles) and written as `side` contiguous
/// vectors. The short blocks at the ends of either loop are peeled off.
void cutTranspose(RewriterBase &rewriter, linalg::LinalgOp op,
                  int64_t side) {
  unsigned along = *transposedLoop(op), last = op.getNumLoops() - 1;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (unsigned d : {along, last})
    if (!ShapedType::isDynamic(ranges[d]) && ranges[d] < side)
      return;
  SmallVector<int64_t> sizes(ranges.size(), 1);
  sizes[along] = sizes[last] = side;
  guardEmptySpace(rewriter, op);
  Operation *block = tileInLoops(rewriter, op, sizes);
  if (!block)
    return;
  markChunk(block);
  // The loop along `last` is the block's parent; the one along `along` is
  // further out (loops nest in dim order).
  SmallVector<scf::ForOp> loops;
  for (auto loop = block->getParentOfType<scf::ForOp>();
       loop && loops.size() < ranges.size();
       loop = loop->getParentOfType<scf::ForOp>())
    loops.push_back(loop);
  for (scf::ForOp loop : loops)
    peelShortIteration(rewriter, loop);
}

/// Folds what cutting left (the peeled loops' bounds, the chunks' slice
/// sizes) so that each whole chunk has a static shape.
LogicalResult canonicalize(Operation *root) {
  MLIRContext *context = root->getContext();
  RewritePatternSet patterns(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  return applyPatternsAndFoldGreedily(root, std::move(patterns));
}

struct VectorizeTilesPass
    : public PassWrapper<VectorizeTilesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VectorizeTilesPass)

  VectorizeTilesPass() = default;
  VectorizeTilesPass(const VectorizeTilesPass &other) : PassWrapper(other) {}
  explicit VectorizeTilesPass(int64_t lanes) { this->lanes = lanes; }

  StringRef getArgument() const final { return "kiln-vectorize-tiles"; }
  StringRef getDescription() const final {
    return "Cut each elementwise or row-reducing linalg op into chunks of "
           "four vector registers along its innermost loop and vectorize "
           "them (a short last chunk is peeled off), with vector "
           "accumulators for row reductions";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<affine::AffineDialect, arith::ArithDialect,
                    scf::SCFDialect, tensor::TensorDialect,
                    vector::VectorDialect>();
  }

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    int64_t width = kRegistersPerChunk * lanes;
    for (linalg::LinalgOp op : ops) {
      switch (classify(op)) {
      case Kind::Elementwise:
        cutElementwise(rewriter, op, width);
        break;
      case Kind::RowReduction:
        cutRowReduction(rewriter, op, width);
        break;
      case Kind::Transpose:
        cutTranspose(rewriter, op, kTransposeBlock);
        break;
      case Kind::Unsupported:
        break;
      }
    }
    if (failed(canonicalize(getOperation())))
      return signalPassFailure();
    // A transpose's short ends, static now, in blocks of half the size.
    SmallVector<linalg::LinalgOp> ends;
    getOperation().walk([&](linalg::TransposeOp op) {
      if (!op->hasAttr(kChunkAttr) && transposedLoop(op))
        ends.push_back(op);
    });
    for (linalg::LinalgOp op : ends)
      cutTranspose(rewriter, op, kTransposeBlock / 2);
    if (!ends.empty() && failed(canonicalize(getOperation())))
      return signalPassFailure();
    // Whole chunks are static now; a chunk whose shape is still dynamic
    // (its size only known at run time) stays scalar.
    SmallVector<Operation *> chunks;
    getOperation().walk([&](Operation *op) {
      if (op->removeAttr(kChunkAttr) &&
          !cast<linalg::LinalgOp>(op).hasDynamicShape())
        chunks.push_back(op);
    });
    for (Operation *chunk : chunks) {
      rewriter.setInsertionPoint(chunk);
      (void)linalg::vectorize(rewriter, chunk);
    }
  }

  Option<int64_t> lanes{
      *this, "lanes",
      llvm::cl::desc("32-bit elements in one of the target's vector "
                     "registers; a chunk is four registers"),
      llvm::cl::init(16)};
};

} // namespace

std::optional<unsigned> transposedLoop(linalg::LinalgOp op) {
  auto transpose = dyn_cast<linalg::TransposeOp>(op.getOperation());
  if (!transpose || !op.hasPureTensorSemantics() ||
      getElementTypeOrSelf(transpose.getInit().getType())
              .getIntOrFloatBitWidth() != 32)
    return std::nullopt;
  AffineMap input = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  unsigned along = cast<AffineDimExpr>(input.getResults().back()).getPosition();
  if (along + 1 == op.getNumLoops())
    return std::nullopt;
  return along;
}

} // namespace kiln::codegen

std::unique_ptr<mlir::Pass> kiln::createVectorizeTilesPass(int64_t lanes) {
  return std::make_unique<codegen::VectorizeTilesPass>(lanes);
}

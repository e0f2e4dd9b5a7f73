//===- DotGraph.cpp - kiln IR as a Graphviz graph -------------------------===//
//
// Why: TorchScript users know their programs as graphs (torch.jit's graph
// dumps, Netron), not as MLIR text. `kiln compile --emit=dot` draws the
// optimized kiln IR the same way, and a picture of the fusion groups shows
// at a glance what got fused and where tensors still go through memory.
//
// How: one walk in program order. Every op is a node `n<k>`, numbered in
// walk order; functions, fusion groups and ops with regions (scf.for/if/
// while) are clusters. Every value maps to the node(s) producing it, and
// each use is an edge from them, printed at the end: a node belongs to the
// cluster that names it first. The mapping follows dataflow, not region
// plumbing. A fusion group has no node of its own: its block arguments map
// to the producers of its operands, its results to those of what it yields.
// A loop or if has a header node that takes its operands and produces its
// block arguments; its terminators produce its results (either branch of
// an scf.if), and a dashed edge leads from a loop's yield back to the
// header. A constant is plain text at each use, so that one `0` does not
// pull edges across the whole picture.
//
//===----------------------------------------------------------------------===//

#include "ir/DotGraph.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

using namespace mlir;
using namespace kiln;

namespace {

/// Longer attribute texts (dense constants, format strings) are cut or left
/// out: a node should stay a box, not a paragraph.
constexpr size_t kMaxAttrChars = 24;

/// Constants are small text, not boxes: they are inputs, not work.
constexpr StringLiteral kConstantStyle = "shape=plain, fontsize=9";

/// Makes `text` safe inside a double-quoted DOT string. Braces, angle
/// brackets and `|` only mean something in record and HTML labels, which
/// are never used here, and Graphviz drops a backslash before them in plain
/// labels; escaping them keeps the labels safe should a shape change.
std::string escape(StringRef text) {
  std::string out;
  for (char c : text) {
    if (StringRef("\"\\{}<>|\n").contains(c))
      out += '\\';
    out += c == '\n' ? 'n' : c;
  }
  return out;
}

/// `type` as a PyTorch user writes it: `f32[?,4]` for a tensor (with the
/// script's dim names where `dimNames` has them), `list[f32[?]]` for a kiln
/// list, MLIR syntax for everything else.
std::string shortType(Type type, ArrayAttr dimNames = {}) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    std::string text = shortType(tensor.getElementType()) + "[";
    for (auto [i, dim] : llvm::enumerate(tensor.getShape())) {
      text += i ? "," : "";
      auto name = dimNames && i < dimNames.size()
                      ? dyn_cast<StringAttr>(dimNames[i])
                      : StringAttr();
      text += name                         ? name.str()
              : ShapedType::isDynamic(dim) ? "?"
                                           : std::to_string(dim);
    }
    return text + "]";
  }
  if (auto list = dyn_cast<ListType>(type))
    return "list[" + shortType(list.getElementType()) + "]";
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

/// Appends one attribute in short form (` dim=0`, ` keepdim`, ` dims=[1]`),
/// or nothing when it is a default or would not fit in a node.
void printShortAttr(NamedAttribute attr, raw_ostream &os) {
  StringRef name = attr.getName().strref();
  Attribute value = attr.getValue();
  if (name.contains('.') || name == "operandSegmentSizes")
    return; // Pass annotations and bookkeeping, not the op's meaning.
  if (auto flag = dyn_cast<BoolAttr>(value)) {
    if (flag.getValue())
      os << ' ' << name;
    return;
  }
  if (auto integer = dyn_cast<IntegerAttr>(value)) {
    if (integer.getValue().getBitWidth() <= 64)
      os << ' ' << name << '=' << integer.getValue().getSExtValue();
    return;
  }
  if (auto array = dyn_cast<DenseI64ArrayAttr>(value)) {
    os << ' ' << name << "=[";
    llvm::interleave(array.asArrayRef(), os, ",");
    os << ']';
    return;
  }
  if (auto string = dyn_cast<StringAttr>(value)) {
    StringRef text = string.getValue();
    os << " \"" << text.take_front(kMaxAttrChars)
       << (text.size() > kMaxAttrChars ? "...\"" : "\"");
    return;
  }
  std::string text;
  llvm::raw_string_ostream(text) << value;
  StringRef printed(text);
  if (isa<SymbolRefAttr>(value)) {
    os << ' ' << printed; // `call @foo` says it all.
  } else if (printed.starts_with("#") && printed.ends_with(">")) {
    // An enum prints as `#dialect<mnemonic value>` or `#dialect.kind<value>`:
    // the value is what a reader wants, unless it is the default `none`.
    StringRef inner = printed.drop_back().split('<').second;
    if (size_t space = inner.rfind(' '); space != StringRef::npos)
      inner = inner.drop_front(space + 1);
    if (!inner.empty() && inner != "none" && inner.size() <= kMaxAttrChars)
      os << ' ' << inner;
  } else if (printed.size() <= kMaxAttrChars) {
    os << ' ' << name << '=' << printed;
  }
}

/// The op name without a prefix where the prefix adds nothing: kiln ops are
/// the common case, scf and func ops are unambiguous. arith keeps its
/// prefix so that `arith.addi` is not mistaken for `kiln.add`.
StringRef displayName(Operation *op) {
  StringRef name = op->getName().getStringRef();
  for (StringRef prefix : {"kiln.", "scf.", "func."})
    if (name.consume_front(prefix))
      break;
  return name;
}

/// `mul : f32[?]`, `cmp eq : i1`, `select dim=0 : f32[?,?]`, `return`.
std::string opLabel(Operation *op) {
  std::string label;
  llvm::raw_string_ostream os(label);
  os << displayName(op);
  if (auto cmp = dyn_cast<CmpOp>(op))
    os << ' ' << stringifyCmpPredicate(cmp.getPredicate());
  for (NamedAttribute attr : op->getAttrs())
    if (!isa<CmpOp>(op) || attr.getName() != "predicate")
      printShortAttr(attr, os);
  if (op->getNumResults() != 0 && op->getNumRegions() == 0) {
    os << " : " << (op->getNumResults() > 1 ? "(" : "");
    llvm::interleaveComma(op->getResultTypes(), os,
                          [&](Type type) { os << shortType(type); });
    os << (op->getNumResults() > 1 ? ")" : "");
  }
  return label;
}

/// A constant's value (`0`, `1.5`, `true`), with the type for a tensor.
std::string constantLabel(Operation *op) {
  std::string label;
  llvm::raw_string_ostream os(label);
  Attribute value = op->getAttr("value");
  if (auto elements = dyn_cast_or_null<ElementsAttr>(value))
    value = elements.isSplat() ? elements.getSplatValue<Attribute>() : nullptr;
  if (auto integer = dyn_cast_or_null<IntegerAttr>(value)) {
    if (integer.getType().isInteger(1))
      os << (integer.getValue().isZero() ? "false" : "true");
    else
      integer.getValue().print(os, /*isSigned=*/true);
  } else if (auto real = dyn_cast_or_null<FloatAttr>(value)) {
    std::string number;
    llvm::raw_string_ostream(number)
        << llvm::format("%g", real.getValueAsDouble());
    // Python spells a float `1.0`, never `1`.
    os << number
       << (StringRef(number).find_first_of(".eni") == StringRef::npos ? ".0"
                                                                      : "");
  } else {
    os << "const";
  }
  Type type = op->getResult(0).getType();
  if (isa<ShapedType>(type))
    os << " : " << shortType(type);
  return label;
}

class DotPrinter {
public:
  explicit DotPrinter(raw_ostream &os) : os(os) {}

  void print(ModuleOp module);

private:
  enum class EdgeKind {
    Data,     // A use of a value.
    LoopBack, // A loop's terminator back to its header: the next iteration.
    Control,  // A header to a guarded op that reads nothing computed inside
              // the loop or if; without it the op may be laid out anywhere.
  };
  struct Edge {
    unsigned from, to;
    Type type; // The value's, for a Data edge.
    EdgeKind kind;
  };

  raw_ostream &indent() { return os.indent(2 * depth); }
  unsigned addNode(StringRef label, StringRef attrs = "");
  unsigned addOpNode(Operation *op, StringRef label, StringRef attrs = "");
  void openCluster(StringRef label, StringRef attrs);
  void closeCluster();
  void setSource(Value value, unsigned node);
  /// Draws `to` wherever `from` would be drawn.
  void forward(Value from, Value to) {
    Source source = sources.lookup(from);
    sources[to] = std::move(source);
  }

  void printFunction(func::FuncOp func);
  std::optional<unsigned> printOp(Operation *op);
  std::optional<unsigned> printFusionGroup(FusionGroupOp group);
  unsigned printRegionOp(Operation *op);
  void printRegionTerminator(Operation *parent, Region &region,
                             Operation *terminator, unsigned header);

  raw_ostream &os;
  unsigned depth = 1;
  unsigned numClusters = 0;
  /// How many values each node produces, by node number. An edge names its
  /// value's type only where the reader must tell several apart.
  std::vector<unsigned> valuesPerNode;
  /// Where a value comes from: the node that produces it (either branch's
  /// for the result of an scf.if), or a constant drawn afresh at each use.
  struct Source {
    SmallVector<unsigned, 1> nodes;
    Operation *constant = nullptr;
  };
  /// Only looked up, never iterated: pointer order must not reach the output.
  DenseMap<Value, Source> sources;
  std::vector<Edge> edges;
};

} // namespace

unsigned DotPrinter::addNode(StringRef label, StringRef attrs) {
  unsigned node = valuesPerNode.size();
  valuesPerNode.push_back(0);
  indent() << 'n' << node << " [label=\"" << escape(label) << '"';
  if (!attrs.empty())
    os << ", " << attrs;
  os << "];\n";
  return node;
}

unsigned DotPrinter::addOpNode(Operation *op, StringRef label,
                               StringRef attrs) {
  // Constant copies first, so that node numbers follow reading order.
  SmallVector<std::pair<unsigned, Type>> inputs;
  for (Value operand : op->getOperands()) {
    // Only unstructured control flow, which kiln never produces, would
    // leave a value without a source.
    Source source = sources.lookup(operand);
    if (source.constant)
      source.nodes = {addNode(constantLabel(source.constant), kConstantStyle)};
    for (unsigned from : source.nodes)
      inputs.push_back({from, operand.getType()});
  }
  unsigned node = addNode(label, attrs);
  for (auto [from, type] : inputs)
    edges.push_back({from, node, type, EdgeKind::Data});
  return node;
}

void DotPrinter::openCluster(StringRef label, StringRef attrs) {
  indent() << "subgraph cluster_" << numClusters++ << " {\n";
  ++depth;
  indent() << "label=\"" << escape(label) << "\"; " << attrs << "\n";
}

void DotPrinter::closeCluster() {
  --depth;
  indent() << "}\n";
}

void DotPrinter::setSource(Value value, unsigned node) {
  sources[value].nodes.push_back(node);
  ++valuesPerNode[node];
}

void DotPrinter::print(ModuleOp module) {
  os << "digraph kiln {\n";
  if (auto source = module->getAttrOfType<StringAttr>("kiln.source"))
    os << "  label=\"" << escape(source.getValue()) << "\";\n"
       << "  labelloc=t;\n";
  os << "  graph [fontname=\"Helvetica\", fontsize=11];\n"
     << "  node [shape=box, style=rounded, fontname=\"Helvetica\", "
        "fontsize=10];\n"
     << "  edge [fontname=\"Helvetica\", fontsize=8];\n";
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto func = dyn_cast<func::FuncOp>(op))
      printFunction(func);
    else
      printOp(&op);
  }
  for (const Edge &edge : edges) {
    os << "  n" << edge.from << " -> n" << edge.to;
    if (edge.kind == EdgeKind::Data && valuesPerNode[edge.from] > 1)
      os << " [label=\"" << escape(shortType(edge.type)) << "\"]";
    else if (edge.kind == EdgeKind::LoopBack)
      os << " [style=dashed, constraint=false]";
    else if (edge.kind == EdgeKind::Control)
      os << " [style=dotted, color=gray50, arrowhead=none]";
    os << ";\n";
  }
  os << "}\n";
}

void DotPrinter::printFunction(func::FuncOp func) {
  openCluster("@" + func.getSymName().str(), "style=rounded; color=gray40;");
  for (BlockArgument arg : func.getArguments()) {
    unsigned index = arg.getArgNumber();
    auto name = func.getArgAttrOfType<StringAttr>(index, "kiln.name");
    // The script's own dim names (`f32[T,B,I]`) say more than `f32[?,?,?]`.
    auto dims = func.getArgAttrOfType<ArrayAttr>(index, "kiln.dims");
    std::string label = (name ? name.str() : "%arg" + std::to_string(index)) +
                        " : " + shortType(arg.getType(), dims);
    setSource(arg, addNode(label, "shape=ellipse, style=filled, "
                                  "fillcolor=\"#dbe8f6\""));
  }
  for (Block &block : func.getBody())
    for (Operation &op : block)
      printOp(&op);
  closeCluster();
}

/// Draws `op`; returns the node control reaches first, if one was drawn.
std::optional<unsigned> DotPrinter::printOp(Operation *op) {
  if (auto group = dyn_cast<FusionGroupOp>(op))
    return printFusionGroup(group);
  if (op->getNumRegions() != 0)
    return printRegionOp(op);
  if (op->hasTrait<OpTrait::ConstantLike>() && op->getNumResults() == 1) {
    sources[op->getResult(0)].constant = op;
    return std::nullopt;
  }
  unsigned node = addOpNode(
      op, opLabel(op),
      op->hasTrait<OpTrait::ReturnLike>() ? "style=\"rounded,bold\"" : "");
  for (Value result : op->getResults())
    setSource(result, node);
  return node;
}

std::optional<unsigned> DotPrinter::printFusionGroup(FusionGroupOp group) {
  openCluster(("fusion_group (" + Twine(group.getNumBodyOps()) + " ops)").str(),
              "style=\"filled,rounded\"; fillcolor=\"#fff4d6\"; "
              "color=\"#d9a441\";");
  // The group is isolated from above: its block arguments stand for its
  // operands, so their uses are drawn from the operands' producers.
  Block &body = group.getBody().front();
  for (auto [arg, input] : llvm::zip(body.getArguments(), group.getInputs()))
    forward(input, arg);
  std::optional<unsigned> entry;
  for (Operation &op : body.without_terminator()) {
    std::optional<unsigned> node = printOp(&op);
    if (!entry)
      entry = node;
  }
  // Likewise its results are drawn from the producers of what it yields.
  for (auto [result, yielded] :
       llvm::zip(group.getResults(), body.getTerminator()->getOperands()))
    forward(yielded, result);
  closeCluster();
  return entry;
}

unsigned DotPrinter::printRegionOp(Operation *op) {
  openCluster(op->getName().getStringRef(),
              "style=\"dashed,rounded\"; color=gray50;");
  unsigned header = addOpNode(op, opLabel(op), "style=\"rounded,bold\"");
  for (Region &region : op->getRegions()) {
    for (Block &block : region) {
      // An induction variable or iteration argument comes from the header,
      // unless an earlier region's terminator forwards to it (scf.while's
      // scf.condition feeds its `after` region).
      for (BlockArgument arg : block.getArguments())
        if (!sources.count(arg))
          setSource(arg, header);
      for (Operation &nested : block) {
        if (&nested == &block.back() &&
            nested.hasTrait<OpTrait::IsTerminator>()) {
          printRegionTerminator(op, region, &nested, header);
          continue;
        }
        std::optional<unsigned> node = printOp(&nested);
        bool readsInside = llvm::any_of(nested.getOperands(), [&](Value v) {
          return !sources.lookup(v).constant &&
                 op->isAncestor(v.getParentRegion()->getParentOp());
        });
        if (node && !readsInside)
          edges.push_back({header, *node, Type(), EdgeKind::Control});
      }
    }
  }
  // An op that does not describe its control flow produces its results at
  // the header.
  for (Value result : op->getResults())
    if (!sources.count(result))
      setSource(result, header);
  closeCluster();
  return header;
}

void DotPrinter::printRegionTerminator(Operation *parent, Region &region,
                                       Operation *terminator, unsigned header) {
  // A terminator without operands (the implicit scf.yield of an scf.if
  // without results) carries nothing worth a node.
  if (terminator->getNumOperands() == 0)
    return;
  unsigned node =
      addOpNode(terminator, opLabel(terminator), "style=\"rounded,dashed\"");
  auto branch = dyn_cast<RegionBranchOpInterface>(parent);
  if (!branch)
    return;
  SmallVector<RegionSuccessor> successors;
  branch.getSuccessorRegions(RegionBranchPoint(&region), successors);
  for (const RegionSuccessor &successor : successors) {
    Region *next = successor.getSuccessor();
    if (successor.isParent()) {
      for (Value result : parent->getResults())
        setSource(result, node);
    } else if (next->getRegionNumber() > region.getRegionNumber()) {
      if (!next->empty())
        for (BlockArgument arg : next->front().getArguments())
          setSource(arg, node);
    } else {
      // Back to this or an earlier region: the loop's next iteration.
      edges.push_back({node, header, Type(), EdgeKind::LoopBack});
    }
  }
}

void kiln::printDotGraph(ModuleOp module, raw_ostream &os) {
  DotPrinter(os).print(module);
}

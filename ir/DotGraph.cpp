//===- DotGraph.cpp - kiln IR as a Graphviz graph -------------------------===//
//
// Why: TorchScript users know their programs as graphs (`graph.png` from
// torch.jit, Netron), not as MLIR text. `kiln compile --emit=dot` draws the
// optimized kiln IR the same way, and a picture of the fusion groups shows
// at a glance what got fused and where the memory round trips remain.
//
// How: one walk over the module, in program order.
// - Every op is a node `n<k>`, numbered in walk order, so the output is
//   deterministic. Functions, fusion groups and ops with regions (scf.for,
//   scf.if, scf.while) are clusters around their bodies.
// - Every value maps to the node(s) that produce it; each use of the value
//   becomes an edge from those nodes to the user. Edges are printed last, at
//   top level, because a node belongs to the cluster it is first named in.
// - Values are mapped so that the picture reads as dataflow instead of
//   mirroring region plumbing: a fusion group's block arguments map to the
//   producers of its operands and its results to the producers of the
//   yielded values, so no node stands for the group itself. A loop or if
//   gets a header node that its operands flow into and that produces its
//   block arguments; its terminator produces its results (both branches of
//   an scf.if do), and the loop-carried step back to the header is a dashed
//   edge that does not constrain the layout.
// - Constants are small plain-text nodes showing their value.
//
//===----------------------------------------------------------------------===//

#include "ir/DotGraph.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

using namespace mlir;
using namespace kiln;

namespace {

/// Labels longer than this (dense constants, long format strings) are cut:
/// a node should stay a box, not a paragraph.
constexpr size_t kMaxAttrChars = 24;

/// Makes `text` safe inside a double-quoted DOT string. Braces, angle
/// brackets and `|` only mean something in record and HTML labels, which
/// this printer never uses, but Graphviz drops the backslash before them in
/// plain labels, so escaping them keeps the output valid if that changes.
std::string escape(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (StringRef("\"\\{}<>|").contains(c))
      out += '\\';
    out += c;
  }
  return out;
}

/// Prints `type` the way a PyTorch user reads it: `f32[?,4]` for a tensor,
/// `list[f32[?]]` for a kiln list, MLIR syntax for everything else.
void printShortType(Type type, raw_ostream &os) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    printShortType(tensor.getElementType(), os);
    os << '[';
    llvm::interleave(
        tensor.getShape(), os,
        [&](int64_t dim) {
          if (ShapedType::isDynamic(dim))
            os << '?';
          else
            os << dim;
        },
        ",");
    os << ']';
    return;
  }
  if (auto list = dyn_cast<ListType>(type)) {
    os << "list[";
    printShortType(list.getElementType(), os);
    os << ']';
    return;
  }
  type.print(os);
}

std::string shortType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printShortType(type, os);
  return text;
}

/// The op name as a label: kiln ops are the common case and scf/func ops are
/// unambiguous without their dialect; arith keeps its prefix so that
/// `arith.addi` is not mistaken for `kiln.add`.
StringRef displayName(Operation *op) {
  StringRef name = op->getName().getStringRef();
  for (StringRef prefix : {"kiln.", "scf.", "func."})
    if (name.consume_front(prefix))
      return name;
  return name;
}

/// Appends one attribute in short form (` dim=0`, ` keepdim`, ` dims=[1]`),
/// or nothing when it would not fit in a node.
void printShortAttr(NamedAttribute attr, raw_ostream &os) {
  StringRef name = attr.getName().strref();
  Attribute value = attr.getValue();
  if (name.contains('.') || name == "operandSegmentSizes")
    return; // Discardable pass annotations, not part of the op's meaning.
  if (auto flag = dyn_cast<BoolAttr>(value)) {
    if (flag.getValue())
      os << ' ' << name; // A false flag is the default; leave it out.
    return;
  }
  if (auto integer = dyn_cast<IntegerAttr>(value)) {
    if (integer.getType().isIntOrIndex() &&
        integer.getValue().getBitWidth() <= 64)
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
  llvm::raw_string_ostream textStream(text);
  value.print(textStream);
  // An enum attribute prints as `#dialect<mnemonic value>` or
  // `#dialect.mnemonic<value>`; the value is what a reader wants, and
  // `none` (no overflow flags, no fast-math) is not worth a word.
  StringRef printed(text);
  if (printed.starts_with("#") && printed.ends_with(">")) {
    StringRef inner = printed.drop_back().split('<').second;
    if (size_t space = inner.rfind(' '); space != StringRef::npos)
      inner = inner.drop_front(space + 1);
    if (!inner.empty() && inner != "none" && inner.size() <= kMaxAttrChars)
      os << ' ' << inner;
  } else if (printed.size() <= kMaxAttrChars) {
    os << ' ' << name << '=' << printed;
  }
}

/// The label of a constant: its value, and the type when the value alone
/// does not say it (a splat tensor or a dense one too big to show).
std::string constantLabel(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  Attribute value = op->getAttr("value");
  if (auto elements = dyn_cast_or_null<ElementsAttr>(value)) {
    if (elements.isSplat())
      value = elements.getSplatValue<Attribute>();
    else
      value = nullptr;
  }
  if (auto integer = dyn_cast_or_null<IntegerAttr>(value)) {
    if (integer.getType().isInteger(1))
      os << (integer.getValue().isZero() ? "false" : "true");
    else
      integer.getValue().print(os, /*isSigned=*/true);
  } else if (auto real = dyn_cast_or_null<FloatAttr>(value)) {
    std::string number;
    llvm::raw_string_ostream(number)
        << llvm::format("%g", real.getValueAsDouble());
    // `1` reads as an integer; keep Python's float spelling.
    if (StringRef(number).find_first_of(".eni") == StringRef::npos)
      number += ".0";
    os << number;
  } else {
    os << "const";
  }
  if (isa<ShapedType>(op->getResult(0).getType()))
    os << " : " << shortType(op->getResult(0).getType());
  return text;
}

/// What a constant looks like: small text, not a box, so that the many
/// copies of `0` and `1` do not crowd out the ops.
constexpr StringLiteral kConstantStyle = "shape=plain, fontsize=9";

class DotPrinter {
public:
  explicit DotPrinter(raw_ostream &os) : os(os) {}

  void print(ModuleOp module);

private:
  enum class EdgeKind {
    Data,     // A use of a value.
    LoopBack, // A loop's terminator back to its header: the next iteration.
    Control,  // A loop or if header to an op it guards that reads nothing
              // computed inside it; otherwise Graphviz lays the op outside.
  };
  struct Edge {
    unsigned from, to;
    Type type; // Of the value, for a Data edge.
    EdgeKind kind;
  };

  raw_ostream &indent() { return os.indent(2 * depth); }
  unsigned addNode(StringRef label, StringRef attrs = "");
  unsigned addOpNode(Operation *op, StringRef label, StringRef attrs = "");
  void openCluster(StringRef label, StringRef attrs);
  void closeCluster();
  void setSource(Value value, unsigned node);
  void forward(Value from, Value to);

  void printFunction(func::FuncOp func);
  std::optional<unsigned> printOp(Operation *op);
  std::optional<unsigned> printFusionGroup(FusionGroupOp group);
  unsigned printRegionOp(Operation *op);
  void printRegionTerminator(Operation *parent, Region &region,
                             Operation *terminator, unsigned header);

  raw_ostream &os;
  unsigned depth = 1;
  unsigned numClusters = 0;
  /// How many values each node produces; an edge names its value's type
  /// only where the node produces several and the reader must tell them
  /// apart. Indexed by node number.
  std::vector<unsigned> valuesPerNode;
  /// The nodes each value comes from: one, except for the results of an
  /// scf.if (either branch). Looked up only, never iterated, so pointer
  /// order cannot leak into the output; the same goes for `constants`.
  DenseMap<Value, SmallVector<unsigned, 1>> sources;
  /// The constant op behind a value. A constant gets a copy next to each
  /// user instead of one node whose edges cross the whole picture.
  DenseMap<Value, Operation *> constants;
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
  // Constant copies come first so that node numbers follow reading order.
  SmallVector<std::pair<unsigned, Type>> inputs;
  for (Value operand : op->getOperands()) {
    if (Operation *constant = constants.lookup(operand)) {
      inputs.push_back({addNode(constantLabel(constant), kConstantStyle),
                        operand.getType()});
      ++valuesPerNode[inputs.back().first];
      continue;
    }
    // A value without a source belongs to unstructured control flow, which
    // kiln does not produce.
    for (unsigned from : sources.lookup(operand))
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
  indent() << "label=\"" << escape(label) << "\";\n";
  indent() << attrs << "\n";
}

void DotPrinter::closeCluster() {
  --depth;
  indent() << "}\n";
}

void DotPrinter::setSource(Value value, unsigned node) {
  sources[value].push_back(node);
  ++valuesPerNode[node];
}

void DotPrinter::forward(Value from, Value to) {
  SmallVector<unsigned, 1> nodes = sources.lookup(from);
  sources[to] = std::move(nodes);
  if (Operation *constant = constants.lookup(from))
    constants[to] = constant;
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
    switch (edge.kind) {
    case EdgeKind::Data:
      if (valuesPerNode[edge.from] > 1)
        os << " [label=\"" << escape(shortType(edge.type)) << "\"]";
      break;
    case EdgeKind::LoopBack:
      os << " [style=dashed, constraint=false]";
      break;
    case EdgeKind::Control:
      os << " [style=dotted, color=gray50, arrowhead=none]";
      break;
    }
    os << ";\n";
  }
  os << "}\n";
}

void DotPrinter::printFunction(func::FuncOp func) {
  openCluster("@" + func.getSymName().str(), "style=rounded; color=gray40;");
  for (BlockArgument arg : func.getArguments()) {
    unsigned index = arg.getArgNumber();
    std::string label;
    llvm::raw_string_ostream labelStream(label);
    if (auto name = func.getArgAttrOfType<StringAttr>(index, "kiln.name"))
      labelStream << name.getValue();
    else
      labelStream << "%arg" << index;
    // The script's own dim names (`f32[T,B,I]`) say more than `f32[?,?,?]`.
    auto tensor = dyn_cast<RankedTensorType>(arg.getType());
    auto dims = func.getArgAttrOfType<ArrayAttr>(index, "kiln.dims");
    if (tensor && dims && dims.size() == size_t(tensor.getRank()) &&
        llvm::all_of(dims, [](Attribute a) { return isa<StringAttr>(a); })) {
      labelStream << " : " << shortType(tensor.getElementType()) << '[';
      llvm::interleave(
          dims, labelStream,
          [&](Attribute dim) {
            labelStream << cast<StringAttr>(dim).getValue();
          },
          ",");
      labelStream << ']';
    } else {
      labelStream << " : " << shortType(arg.getType());
    }
    setSource(arg, addNode(label, "shape=ellipse, style=filled, "
                                  "fillcolor=\"#dbe8f6\""));
  }
  for (Block &block : func.getBody())
    for (Operation &op : block)
      printOp(&op);
  closeCluster();
}

/// Draws `op` and returns the node that control reaches first, if any.
std::optional<unsigned> DotPrinter::printOp(Operation *op) {
  if (auto group = dyn_cast<FusionGroupOp>(op))
    return printFusionGroup(group);
  if (op->getNumRegions() != 0)
    return printRegionOp(op);
  if (op->hasTrait<OpTrait::ConstantLike>() && op->getNumResults() == 1) {
    constants[op->getResult(0)] = op; // Drawn at each use instead.
    return std::nullopt;
  }

  std::string label;
  llvm::raw_string_ostream labelStream(label);
  labelStream << displayName(op);
  if (auto cmp = dyn_cast<CmpOp>(op))
    labelStream << ' ' << stringifyCmpPredicate(cmp.getPredicate());
  for (NamedAttribute attr : op->getAttrs())
    if (!isa<CmpOp>(op) || attr.getName() != "predicate")
      printShortAttr(attr, labelStream);
  if (op->getNumResults() == 1) {
    labelStream << " : " << shortType(op->getResult(0).getType());
  } else if (op->getNumResults() > 1) {
    labelStream << " : (";
    llvm::interleaveComma(op->getResultTypes(), labelStream,
                          [&](Type t) { printShortType(t, labelStream); });
    labelStream << ')';
  }
  unsigned node = addOpNode(
      op, label,
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
  // Likewise the results are drawn from the producers of what is yielded.
  for (auto [result, yielded] :
       llvm::zip(group.getResults(), body.getTerminator()->getOperands()))
    forward(yielded, result);
  closeCluster();
  return entry;
}

unsigned DotPrinter::printRegionOp(Operation *op) {
  openCluster(op->getName().getStringRef(),
              "style=\"dashed,rounded\"; color=gray50;");
  std::string label = displayName(op).str();
  llvm::raw_string_ostream labelStream(label);
  for (NamedAttribute attr : op->getAttrs())
    printShortAttr(attr, labelStream);
  unsigned header = addOpNode(op, label, "style=\"rounded,bold\"");
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
          return !constants.count(v) &&
                 op->isAncestor(v.getParentRegion()->getParentOp());
        });
        if (node && !readsInside)
          edges.push_back({header, *node, Type(), EdgeKind::Control});
      }
    }
  }
  // Ops that do not describe their control flow produce their results at
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
  // with no results) carries nothing worth a node.
  if (terminator->getNumOperands() == 0)
    return;
  unsigned node = addOpNode(terminator, displayName(terminator),
                            "style=\"rounded,dashed\"");
  auto branch = dyn_cast<RegionBranchOpInterface>(parent);
  if (!branch)
    return;
  SmallVector<RegionSuccessor> successors;
  branch.getSuccessorRegions(RegionBranchPoint(&region), successors);
  for (const RegionSuccessor &successor : successors) {
    if (successor.isParent()) {
      for (Value result : parent->getResults())
        setSource(result, node);
      continue;
    }
    Region *next = successor.getSuccessor();
    if (next->getRegionNumber() > region.getRegionNumber() && !next->empty()) {
      for (BlockArgument arg : next->front().getArguments())
        setSource(arg, node);
      continue;
    }
    // Back to this or an earlier region: one more iteration of the loop.
    edges.push_back({node, header, Type(), EdgeKind::LoopBack});
  }
}

void kiln::printDotGraph(ModuleOp module, raw_ostream &os) {
  DotPrinter(os).print(module);
}

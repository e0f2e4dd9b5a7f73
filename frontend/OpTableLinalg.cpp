//===- OpTableLinalg.cpp - The einsum builder -----------------------------===//
//
// torch.einsum (the row of frontend/prelude/linalg.py), parsed at compile
// time and lowered to ops kiln already has, so fusion and the matmul
// kernels see through it: one operand is a sum
// over the letters the output drops and a permute; two operands become
// [batch, M, K] x [batch, K, N] (permutes, reshapes that merge the letters
// of each group, and one kiln.matmul), or a broadcast multiply when no
// letter is contracted; three or more contract left to right, keeping the
// letters a later operand or the output still needs. '...' stands for the
// leading dims an operand has beyond its letters (aligned from the right,
// as broadcasting does). A letter repeated within one operand (a diagonal,
// 'ii->i') is refused.
//
//===----------------------------------------------------------------------===//
#include "frontend/OpBuilders.h"
#include "frontend/OpFamilies.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

using namespace mlir;

namespace kiln::ops {

namespace {
/// A subscript: a letter's character, or kEllipsis + i for the i-th dim
/// '...' stands for (counted from the left of the longest '...').
using Label = int;
constexpr Label kEllipsis = 1000;
using Labels = SmallVector<Label>;

std::string nameOf(Label l) {
  if (l >= kEllipsis)
    return "'...' dimension " + std::to_string(l - kEllipsis);
  return std::string("'") + static_cast<char>(l) + "'";
}

struct Equation {
  std::vector<Labels> inputs;
  Labels output;
};

/// One side of the equation: letters, and '...' at most once.
struct Term {
  Labels letters; // with kEllipsis where '...' stands
  bool ellipsis = false;
};

class Parser {
public:
  Parser(OpArgs &a) : a(a), text(a.str("equation")) {}

  std::optional<Equation> parse(ArrayRef<Value> operands) {
    std::string eq;
    for (char c : text)
      if (c != ' ')
        eq += c;
    llvm::StringRef lhs = eq, rhs;
    size_t arrow = lhs.find("->");
    bool explicitOutput = arrow != llvm::StringRef::npos;
    if (explicitOutput) {
      rhs = lhs.drop_front(arrow + 2);
      lhs = lhs.take_front(arrow);
    }
    SmallVector<llvm::StringRef> parts;
    lhs.split(parts, ',');
    if (parts.size() != operands.size())
      return refuse("has " + std::to_string(parts.size()) + " operand" +
                    (parts.size() == 1 ? "" : "s") + ", but " +
                    std::to_string(operands.size()) + " tensor" +
                    (operands.size() == 1 ? " was" : "s were") + " given");
    std::vector<Term> terms;
    size_t longest = 0;
    for (auto [i, part] : llvm::enumerate(parts)) {
      std::optional<Term> t = term(part, "operand " + std::to_string(i));
      if (!t)
        return std::nullopt;
      int64_t rank = typeOf(operands[i]).getRank();
      int64_t named = t->letters.size() - t->ellipsis;
      if (rank < named || (!t->ellipsis && rank != named))
        return refuse("names " + std::to_string(named) + " dimensions in "
                      "operand " + std::to_string(i) + " ('" + part.str() +
                      "'), but it has " + std::to_string(rank));
      longest = std::max<size_t>(longest, rank - named);
      terms.push_back(*t);
    }
    Equation out;
    for (auto [i, t] : llvm::enumerate(terms))
      out.inputs.push_back(
          expand(t, typeOf(operands[i]).getRank() -
                        (t.letters.size() - t.ellipsis), longest));
    if (explicitOutput) {
      std::optional<Term> t = term(rhs, "the output");
      if (!t)
        return std::nullopt;
      out.output = expand(*t, longest, longest);
      for (Label l : out.output)
        if (l < kEllipsis && !llvm::any_of(out.inputs, [&](const Labels &in) {
              return llvm::is_contained(in, l);
            }))
          return refuse("output subscript " + nameOf(l) +
                        " does not appear in any operand");
    } else {
      // PyTorch's implicit output: '...', then the letters used once, sorted.
      for (size_t i = 0; i < longest; ++i)
        out.output.push_back(kEllipsis + i);
      std::map<Label, int> uses;
      for (const Labels &in : out.inputs)
        for (Label l : in)
          ++uses[l];
      for (auto [l, n] : uses)
        if (l < kEllipsis && n == 1)
          out.output.push_back(l);
    }
    return out;
  }

  /// An error about the equation, at the string.
  std::nullopt_t refuse(const std::string &why) {
    a.fl.error(a.range("equation"),
               a.spelling + "() equation '" + text + "' " + why);
    return std::nullopt;
  }

private:
  std::optional<Term> term(llvm::StringRef s, const std::string &where) {
    Term t;
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (s.substr(i).starts_with("...") && t.ellipsis)
        return refuse("has '...' twice in " + where);
      if (s.substr(i).starts_with("...")) {
        t.ellipsis = true;
        t.letters.push_back(kEllipsis);
        i += 2;
        continue;
      }
      if (!llvm::isAlpha(c))
        return refuse("has '" + std::string(1, c) + "' in " + where +
                      "; subscripts are letters a-z and A-Z, and '...'");
      if (llvm::is_contained(t.letters, c))
        return refuse("repeats " + nameOf(c) + " in " + where + " ('" +
                      s.str() + "'); " +
                      (where == "the output"
                           ? std::string("an output letter appears once")
                           : "diagonals are not supported"));
      t.letters.push_back(c);
    }
    return t;
  }

  /// `t`'s labels with '...' replaced by the last `count` of `longest`.
  static Labels expand(const Term &t, size_t count, size_t longest) {
    Labels out;
    for (Label l : t.letters) {
      if (l != kEllipsis) {
        out.push_back(l);
        continue;
      }
      for (size_t i = longest - count; i < longest; ++i)
        out.push_back(kEllipsis + i);
    }
    return out;
  }

  OpArgs &a;
  std::string text;
};

/// An operand with the label of each of its dims.
struct Operand {
  Value value;
  Labels labels;
};

class Contractor {
public:
  Contractor(OpArgs &a) : a(a), fl(a.fl) {}

  /// `x` with its dims reordered to `order` (a permutation of its labels).
  Operand permute(Operand x, const Labels &order) {
    SmallVector<int64_t> perm;
    for (Label l : order)
      perm.push_back(llvm::find(x.labels, l) - x.labels.begin());
    if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      return {x.value, order};
    Type t = inferPermuteType(x.value.getType(), perm, nullptr);
    return {fl.b.create<PermuteOp>(fl.loc(a.where), t, x.value, perm),
            order};
  }

  /// `x` summed over the labels not in `keep` (in i64 for ints, as
  /// torch.sum and PyTorch's einsum).
  Operand sumExcept(Operand x, const Labels &keep) {
    SmallVector<int64_t> dims;
    Labels rest;
    for (auto [i, l] : llvm::enumerate(x.labels)) {
      if (llvm::is_contained(keep, l))
        rest.push_back(l);
      else
        dims.push_back(i);
    }
    if (dims.empty())
      return x;
    return {nn::reduce(fl, "kiln.sum", x.value, dims, false, a.where), rest};
  }

  /// The product of `x`'s sizes along `labels`, as an i64 value.
  Value sizeOf(const Operand &x, const Labels &labels) {
    auto t = typeOf(x.value);
    Value n;
    for (Label l : labels) {
      int64_t i = llvm::find(x.labels, l) - x.labels.begin();
      Value d = t.isDynamicDim(i)
                    ? fl.b.create<DimOp>(fl.loc(a.where), fl.b.getI64Type(),
                                         x.value, fl.b.getI64IntegerAttr(i))
                          .getResult()
                    : fl.constInt(t.getDimSize(i), a.where);
      n = n ? mulSizes(a, n, d) : d;
    }
    return n ? n : fl.constInt(1, a.where);
  }

  /// `x` (ordered as the groups) reshaped to one dim per group, unless
  /// every group is one dim already.
  Value merge(const Operand &x, ArrayRef<Labels> groups) {
    if (llvm::all_of(groups, [](const Labels &g) { return g.size() == 1; }))
      return x.value;
    SmallVector<Value> sizes;
    for (const Labels &g : groups)
      sizes.push_back(sizeOf(x, g));
    return nn::reshape(fl, x.value, sizes, a.where);
  }

  /// Contracts `l` and `r`, keeping the labels in `keep`; the result is
  /// ordered batch, then l's kept labels, then r's.
  std::optional<Operand> pair(Operand l, Operand r, const Labels &keep) {
    auto in = [](const Operand &x, Label lb) {
      return llvm::is_contained(x.labels, lb);
    };
    // Letters only one side has and nothing keeps are summed out first.
    Labels lKeep, rKeep;
    for (Label x : l.labels)
      if (in(r, x) || llvm::is_contained(keep, x))
        lKeep.push_back(x);
    for (Label x : r.labels)
      if (in(l, x) || llvm::is_contained(keep, x))
        rKeep.push_back(x);
    l = sumExcept(l, lKeep);
    r = sumExcept(r, rKeep);
    // A sum made one int operand i64; the other follows (PyTorch 1.13
    // refuses this mix in its bmm).
    Type le = typeOf(l.value).getElementType(),
         re = typeOf(r.value).getElementType();
    if (le != re) {
      Type wide = le.isInteger(64) ? le : re;
      l.value = castTo(a, l.value, wide);
      r.value = castTo(a, r.value, wide);
    }
    Labels batch, m, n, k;
    for (Label x : l.labels)
      (in(r, x) ? (llvm::is_contained(keep, x) ? batch : k) : m).push_back(x);
    for (Label x : r.labels)
      if (!in(l, x))
        n.push_back(x);
    Labels result = batch;
    result.append(m.begin(), m.end());
    result.append(n.begin(), n.end());
    if (k.empty()) {
      // Nothing to contract: an outer product over the batch letters.
      Labels lOrder = batch, rOrder = batch;
      lOrder.append(m.begin(), m.end());
      rOrder.append(n.begin(), n.end());
      Value lv = permute(l, lOrder).value, rv = permute(r, rOrder).value;
      for (size_t i = 0; i < n.size(); ++i)
        lv = unsqueeze(lv, lOrder.size() + i);
      for (size_t i = 0; i < m.size(); ++i)
        rv = unsqueeze(rv, batch.size());
      std::optional<Value> p =
          fl.emitElementwise("kiln.mul", lv, rv, a.where, a.where, a.where);
      if (!p)
        return std::nullopt;
      return Operand{*p, result};
    }
    Labels lOrder = batch, rOrder = batch;
    lOrder.append(m.begin(), m.end());
    lOrder.append(k.begin(), k.end());
    rOrder.append(k.begin(), k.end());
    rOrder.append(n.begin(), n.end());
    Operand lp = permute(l, lOrder), rp = permute(r, rOrder);
    SmallVector<Labels> lGroups, rGroups;
    for (Label x : batch) {
      lGroups.push_back({x});
      rGroups.push_back({x});
    }
    lGroups.append({m, k});
    rGroups.append({k, n});
    Value lv = merge(lp, lGroups), rv = merge(rp, rGroups);
    std::string why;
    Type t = inferMatmulType(lv.getType(), rv.getType(), &why);
    if (!t) {
      fl.error(a.where, a.spelling + "(): " + fl.userMessage(why));
      return std::nullopt;
    }
    Value y = fl.b.create<MatmulOp>(fl.loc(a.where), t, lv, rv);
    if (m.size() == 1 && n.size() == 1)
      return Operand{y, result};
    // Split the merged M and N dims back into their letters.
    std::vector<Value> dims = fl.dimValues(y, a.where);
    SmallVector<Value> sizes(dims.begin(), dims.begin() + batch.size());
    for (Label x : m)
      sizes.push_back(sizeOf(lp, {x}));
    for (Label x : n)
      sizes.push_back(sizeOf(rp, {x}));
    return Operand{nn::reshape(fl, y, sizes, a.where), result};
  }

private:
  Value unsqueeze(Value x, int64_t dim) {
    Type t = inferUnsqueezeType(x.getType(), dim, nullptr);
    return fl.b.create<UnsqueezeOp>(fl.loc(a.where), t, x, dim);
  }

  OpArgs &a;
  FunctionLowering &fl;
};

/// Sizes of one label must agree where they are static; a size of 1
/// broadcasts against a batch letter, as PyTorch allows.
bool checkSizes(OpArgs &a, Parser &p, const Equation &eq,
                ArrayRef<Value> operands) {
  std::map<Label, std::pair<int64_t, size_t>> seen; // size, operand
  for (auto [i, labels] : llvm::enumerate(eq.inputs)) {
    auto t = typeOf(operands[i]);
    for (auto [d, l] : llvm::enumerate(labels)) {
      int64_t s = t.getDimSize(d);
      if (ShapedType::isDynamic(s))
        continue;
      auto [it, fresh] = seen.insert({l, {s, i}});
      int64_t before = it->second.first;
      if (fresh || before == s)
        continue;
      if (before != 1 && s != 1) {
        p.refuse("gives " + nameOf(l) + " size " + std::to_string(before) +
                 " in operand " + std::to_string(it->second.second) +
                 " but size " + std::to_string(s) + " in operand " +
                 std::to_string(i));
        return false;
      }
      if (before == 1)
        it->second = {s, i};
    }
  }
  return true;
}

V einsum(OpArgs &a) {
  std::optional<std::vector<Value>> operands = a.tensors("tensors");
  if (!operands)
    return std::nullopt;
  if (operands->empty())
    return fail(a, a.range("tensors"),
                a.spelling + "() needs at least one operand");
  Type element = typeOf((*operands)[0]).getElementType();
  for (Value v : *operands)
    if (typeOf(v).getElementType() != element)
      return fail(a, a.range("tensors"),
                  a.spelling + "() operands must have one dtype, got " +
                      describeType((*operands)[0].getType()) + " and " +
                      describeType(v.getType()));
  Parser parser(a);
  std::optional<Equation> eq = parser.parse(*operands);
  if (!eq || !checkSizes(a, parser, *eq, *operands))
    return std::nullopt;
  Contractor c(a);
  Operand acc{(*operands)[0], eq->inputs[0]};
  for (size_t i = 1; i < operands->size(); ++i) {
    // Keep what the output or a later operand still needs.
    Labels keep = eq->output;
    for (size_t j = i + 1; j < operands->size(); ++j)
      for (Label l : eq->inputs[j])
        if (!llvm::is_contained(keep, l))
          keep.push_back(l);
    std::optional<Operand> next =
        c.pair(acc, {(*operands)[i], eq->inputs[i]}, keep);
    if (!next)
      return std::nullopt;
    acc = *next;
  }
  return c.permute(c.sumExcept(acc, eq->output), eq->output).value;
}
} // namespace

std::vector<NamedBuilder> linalgBuilders() { return {{"einsum", einsum}}; }

} // namespace kiln::ops

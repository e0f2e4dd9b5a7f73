//===- OpCatalog.cpp - The op table as JSON and Markdown ------------------===//
//
// `kiln ops --json` feeds the generated differential test
// (test/ops/Inputs/gen_op_tests.py) and `kiln ops --markdown` is the table
// in docs/python-subset.md; both come from the rows, so neither the tests
// nor the documentation can drift from what the frontend accepts.
//
//===----------------------------------------------------------------------===//
#include "frontend/OpTable.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln::ops {

/// Every spelling of a row, as a user writes it.
static std::vector<std::string> spellingsOf(const Row &r) {
  std::vector<std::string> out;
  std::vector<std::string> names = {r.schema().name};
  for (const char *a : r.aliases)
    names.push_back(a);
  for (const std::string &n : names) {
    if (r.spellings & Torch)
      out.push_back("torch." + n);
    if (r.spellings & Method)
      out.push_back("Tensor." + n);
    if (r.spellings & Functional)
      out.push_back("F." + n);
    if (r.spellings & InPlace)
      out.push_back("Tensor." + n + "_");
    if (r.spellings & Math)
      out.push_back("math." + n);
  }
  return out;
}

static std::string lowering(const Row &r) {
  return r.kilnOp ? std::string(r.kilnOp) : std::string("composite");
}

/// What the differential test compares of a random row's values.
static std::string randomNote(llvm::StringRef kind) {
  if (kind == "any")
    return "values unspecified: compared with PyTorch by shape and dtype only";
  return "random: compared with PyTorch by shape, dtype and " +
         std::string(kind == "uniform" ? "range [0, 1)" : "finiteness") +
         " only";
}

std::string catalogJson() {
  llvm::json::Array rows;
  for (const Row &r : allRows()) {
    llvm::json::Array spellings, samples;
    for (const std::string &s : spellingsOf(r))
      spellings.push_back(s);
    for (const Sample &s : r.samples)
      samples.push_back(llvm::json::Object{
          {"inputs", s.inputs}, {"args", s.args}, {"lo", s.lo}, {"hi", s.hi}});
    llvm::json::Array params;
    for (const Param &p : r.schema().params)
      params.push_back(p.name);
    rows.push_back(
        llvm::json::Object{{"name", r.schema().name},
                           {"schema", r.schema().text()},
                           {"params", std::move(params)},
                           {"returns", r.schema().returns},
                           {"spellings", std::move(spellings)},
                           {"f_inplace_arg", (r.spellings & FInplaceArg) != 0},
                           {"lowering", lowering(r)},
                           {"random", r.random ? llvm::json::Value(r.random)
                                               : llvm::json::Value(nullptr)},
                           {"rtol", r.rtol},
                           {"atol", r.atol},
                           {"samples", std::move(samples)}});
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(rows))) << "\n";
  return out;
}

std::string catalogMarkdown() {
  std::string out =
      "| schema | spellings | lowering | notes |\n| --- | --- | --- | --- |\n";
  for (const Row &r : allRows()) {
    std::string spellings;
    for (const std::string &s : spellingsOf(r))
      spellings += (spellings.empty() ? "`" : ", `") + s + "`";
    std::string note = r.note;
    if (r.random)
      note += std::string(note.empty() ? "" : "; ") + randomNote(r.random);
    if (r.spellings & FInplaceArg)
      note += std::string(note.empty() ? "" : "; ") + "`F." + r.schema().name +
              "` also takes `inplace=`";
    out += "| `" + r.schema().text() + "` | " + spellings + " | " +
           (r.kilnOp ? "`" + lowering(r) + "`" : lowering(r)) + " | " + note +
           " |\n";
  }
  return out;
}

} // namespace kiln::ops

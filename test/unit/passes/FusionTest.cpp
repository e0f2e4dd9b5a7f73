//===- FusionTest.cpp - fusion on random programs -------------------------===//
//
// The golden tests show fusion on hand-picked shapes; these build many
// random straight-line programs (elementwise ops mixed with matmuls, which
// do not fuse, and prints, which split the program) and check what must
// hold for every one of them: the result verifies (groups are convex and
// every value is defined before its use), no op is lost or duplicated,
// prints keep their order, and no group reaches across a print.
//
//===----------------------------------------------------------------------===//

#include "ir/KilnDialect.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>

using namespace mlir;

namespace {

/// A random function over tensor<4x4xf32> values: `length` ops, each
/// reading earlier values.
std::string randomProgram(std::mt19937 &rng, int length) {
  std::string body;
  int values = 2; // %v0 and %v1 are the arguments
  int prints = 0;
  auto pick = [&] {
    return "%v" + std::to_string(std::uniform_int_distribution<int>(
                      0, values - 1)(rng));
  };
  const char *type = "tensor<4x4xf32>";
  for (int i = 0; i < length; ++i) {
    int kind = std::uniform_int_distribution<int>(0, 9)(rng);
    std::string result = "%v" + std::to_string(values);
    if (kind < 3) {
      const char *op = kind == 0 ? "exp" : kind == 1 ? "neg" : "tanh";
      body += "  " + result + " = kiln." + op + " " + pick() + " : " + type +
              "\n";
    } else if (kind < 7) {
      const char *op = kind < 5 ? "add" : "mul";
      body += "  " + result + " = kiln." + op + " " + pick() + ", " +
              pick() + " : (" + type + ", " + type + ") -> " + type + "\n";
    } else if (kind < 9) {
      body += "  " + result + " = kiln.matmul " + pick() + ", " + pick() +
              " : (" + type + ", " + type + ") -> " + type + "\n";
    } else {
      body += "  kiln.print \"p" + std::to_string(prints++) + " {}\"(" +
              pick() + " : " + type + ")\n";
      continue;
    }
    ++values;
  }
  return "func.func @f(%v0: " + std::string(type) + ", %v1: " + type +
         ") -> " + type + " {\n" + body + "  return %v" +
         std::to_string(values - 1) + " : " + type + "\n}\n";
}

/// How many ops of each name the module holds, group bodies included.
std::map<std::string, int> countOps(ModuleOp module) {
  std::map<std::string, int> counts;
  module.walk([&](Operation *op) {
    counts[op->getName().getStringRef().str()]++;
  });
  counts.erase("kiln.fusion_group");
  counts.erase("kiln.yield");
  return counts;
}

std::vector<std::string> printOrder(ModuleOp module) {
  std::vector<std::string> order;
  module.walk([&](kiln::PrintOp op) { order.push_back(op.getFormat().str()); });
  return order;
}

} // namespace

TEST_CASE("fusion keeps random programs valid and complete", "[fusion]") {
  DialectRegistry registry;
  kiln::registerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  std::mt19937 rng(1234);
  int groupsSeen = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::string text = randomProgram(rng, 6 + trial % 30);
    CAPTURE(text);
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
    REQUIRE(module);
    auto before = countOps(*module);
    auto printsBefore = printOrder(*module);
    // Number the stretches between prints; the attribute travels with each
    // op into any group it joins.
    Block &body = module->lookupSymbol<func::FuncOp>("f").getBody().front();
    int64_t stretch = 0;
    Builder builder(&context);
    for (Operation &op : body) {
      if (isa<kiln::PrintOp>(op))
        ++stretch;
      else
        op.setAttr("stretch", builder.getI64IntegerAttr(stretch));
    }

    PassManager pm(&context);
    pm.addPass(kiln::createFusionPass());
    REQUIRE(succeeded(pm.run(*module)));
    REQUIRE(succeeded(verify(*module)));
    CHECK(countOps(*module) == before);
    CHECK(printOrder(*module) == printsBefore);

    // A group's ops all come from one stretch between two prints, and the
    // group sits in that stretch.
    module->walk([&](kiln::FusionGroupOp group) {
      ++groupsSeen;
      CHECK(group.getNumBodyOps() >= 2);
      int64_t printsBefore = 0;
      for (Operation *op = group->getPrevNode(); op; op = op->getPrevNode())
        printsBefore += isa<kiln::PrintOp>(op);
      for (Operation &op : group.getBody().front().without_terminator())
        CHECK(cast<IntegerAttr>(op.getAttr("stretch")).getInt() ==
              printsBefore);
    });
  }
  // The generator must actually produce groups for the test to mean much.
  CHECK(groupsSeen > 100);
}

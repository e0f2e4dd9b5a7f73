//===- StructuredInputTest.cpp - List and Tuple inputs from C++ ----------===//
//
// The elements of a List or Tuple entry parameter are inputs of their own,
// named "xs.0", "xs.1", ... (EntryInfo::argIndex finds them), and a
// returned tuple's or list's elements are results of their own. Compiled
// with the real compiler (ModelTestUtil.h); values are small integers, so
// results are exact.
//
//===----------------------------------------------------------------------===//

#include "ModelTestUtil.h"

using namespace kiln;
using namespace kiln::test;

TEST_CASE("a List[Tensor] and a Tuple[Tensor, int] are their elements",
          "[model][containers]") {
  Model model = loadOk(archive("containers", R"(# kiln: xs=[f32[N], f32[N]], pair=(f32[N], int)
@torch.jit.script
def f(xs: List[Tensor], pair: Tuple[Tensor, int]) -> List[Tensor]:
    return [torch.cat(xs) * pair[1], xs[0] + pair[0]]
)"));
  const EntryInfo *entry = model.entry("f");
  REQUIRE(entry);
  REQUIRE(entry->args.size() == 4);
  CHECK(entry->args[1].name == "xs.1");
  CHECK(entry->argIndex("pair.0") == 2);
  CHECK(entry->argIndex("pair.1") == 3);
  CHECK(entry->argIndex("xs") == -1);
  CHECK(entry->args[3].scalar);
  CHECK(entry->resultIndex("result1") == 1);

  std::vector<Tensor> inputs(entry->args.size());
  inputs[entry->argIndex("xs.0")] =
      filled<float>(DType::F32, {2}, {1.0f, 2.0f});
  inputs[entry->argIndex("xs.1")] =
      filled<float>(DType::F32, {2}, {3.0f, 4.0f});
  inputs[entry->argIndex("pair.0")] =
      filled<float>(DType::F32, {2}, {10.0f, 20.0f});
  inputs[entry->argIndex("pair.1")] = scalar<int64_t>(DType::I64, 2);
  std::vector<Tensor> out = runOk(model, "f", inputs);
  REQUIRE(out.size() == 2);
  CHECK(valuesOf<float>(out[0]) == std::vector<float>{2.0f, 4.0f, 6.0f, 8.0f});
  CHECK(valuesOf<float>(out[1]) == std::vector<float>{11.0f, 22.0f});
}

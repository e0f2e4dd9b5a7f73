//===- StrChoiceTest.cpp - A str input chosen at run time, from C++ and C -===//
//
// An entry compiled with `--arg mode=str:double|negate` lists the values
// (ValueInfo::strChoices; kiln_value_str_choice from C) and takes the
// chosen one's index as an i64 scalar; its default is an index too. The
// compiled code checks the index. Values are small integers, so results
// are exact.
//
//===----------------------------------------------------------------------===//

#include "ModelTestUtil.h"

#include "kiln/kiln.h"

using namespace kiln;
using namespace kiln::test;

namespace {

const char *const ChoiceScript = R"(
# kiln: x=f32[N], mode=str:double|negate
@torch.jit.script
def f(x: Tensor, mode: str = "negate") -> Tensor:
    if mode == "double":
        return x * 2.0
    return -x
)";

} // namespace

TEST_CASE("a str chosen at run time is its value's index",
          "[model][strchoices]") {
  const std::string &path = archive("str-choices", ChoiceScript);
  Model model = loadOk(path);
  const EntryInfo *entry = model.entry("f");
  REQUIRE(entry);
  REQUIRE(entry->args.size() == 2);
  const ValueInfo &mode = entry->args[1];
  CHECK(mode.name == "mode");
  CHECK(mode.scalar);
  CHECK(mode.dtype == DType::I64);
  CHECK(mode.strChoices == std::vector<std::string>{"double", "negate"});
  CHECK(mode.choiceIndex("negate") == 1);
  CHECK(mode.choiceIndex("relu") == -1);
  REQUIRE(mode.hasDefault());
  CHECK(*mode.defaultValue.data<int64_t>() == 1);
  CHECK(entry->args[0].strChoices.empty());

  Tensor x = filled<float>(DType::F32, {2}, {1.0f, -3.0f});
  CHECK(valuesOf<float>(runOk(model, "f", {x, scalar<int64_t>(
                                                  DType::I64, 0)})[0]) ==
        std::vector<float>{2.0f, -6.0f});
  CHECK(valuesOf<float>(runOk(model, "f", {x})[0]) ==
        std::vector<float>{-1.0f, 3.0f});
  CHECK(runError(model, "f", {x, scalar<int64_t>(DType::I64, 2)})
            .find("error: input 'mode' of 'f' must index one of its 2 str "
                  "choices") != std::string::npos);

  // From C.
  kiln_model *raw = nullptr;
  kiln_status *status = kiln_model_load(path.c_str(), &raw);
  REQUIRE(status == nullptr);
  const kiln_entry_point *e = kiln_model_entry(raw, 0);
  const kiln_value *m = kiln_entry_input(e, kiln_entry_find_input(e, "mode"));
  CHECK(kiln_value_str_choice_count(m) == 2);
  CHECK(std::string(kiln_value_str_choice(m, 1)) == "negate");
  CHECK(kiln_value_str_choice(m, 2) == nullptr);
  CHECK(kiln_value_str_choice_count(kiln_entry_input(e, 0)) == 0);
  CHECK(kiln_value_str_choice_count(nullptr) == 0);
  CHECK(kiln_value_str_choice(nullptr, 0) == nullptr);
  kiln_model_free(raw);
}

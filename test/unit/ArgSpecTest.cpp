//===- ArgSpecTest.cpp ----------------------------------------------------===//
#include "frontend/ArgSpec.h"

#include <catch2/catch.hpp>

using namespace kiln;

TEST_CASE("argspec: good specs", "[argspec]") {
  auto r = parseArgSpec("x=f32[B,784]");
  REQUIRE(r.ok());
  CHECK(r.value.name == "x");
  CHECK(r.value.dtype == DType::F32);
  REQUIRE(r.value.dims.size() == 2);
  CHECK(r.value.dims[0].isSymbolic());
  CHECK(r.value.dims[0].symbol == "B");
  CHECK(r.value.dims[1].size == 784);
  CHECK(r.value.dims[1].symbol.empty());
  CHECK(printArgSpec(r.value) == "x=f32[B,784]");

  auto scalar = parseArgSpec("  s = i64[ ] ");
  REQUIRE(scalar.ok());
  CHECK(scalar.value.dims.empty());
  CHECK(printArgSpec(scalar.value) == "s=i64[]");

  auto spaced = parseArgSpec("w_1 = bfloat16[ 3 , T_len ]");
  REQUIRE(spaced.ok());
  CHECK(spaced.value.dtype == DType::BF16);
  CHECK(printArgSpec(spaced.value) == "w_1=bf16[3,T_len]");

  auto zero = parseArgSpec("z=bool[0]");
  REQUIRE(zero.ok());
  CHECK(zero.value.dims[0].size == 0);
  CHECK_FALSE(zero.value.optional);

  // `?` marks an Optional[Tensor] input, as kiln inspect prints it.
  auto optional = parseArgSpec("mask=f32[T,T] ?");
  REQUIRE(optional.ok());
  CHECK(optional.value.optional);
  CHECK(optional.value.dims.size() == 2);
  CHECK(printArgSpec(optional.value) == "mask=f32[T,T]?");
}

TEST_CASE("argspec: str values", "[argspec]") {
  auto mode = parseArgSpec("mode=str:relu");
  REQUIRE(mode.ok());
  CHECK(mode.value.name == "mode");
  REQUIRE(mode.value.str);
  CHECK(*mode.value.str == "relu");
  CHECK(printArgSpec(mode.value) == "mode=str:relu");
  // Everything after "str:" is the value, spaces and brackets included.
  auto odd = parseArgSpec("s = str:a [b] c");
  REQUIRE(odd.ok());
  CHECK(*odd.value.str == "a [b] c");
  auto empty = parseArgSpec("s=str:");
  REQUIRE(empty.ok());
  CHECK(*empty.value.str == "");
  CHECK_FALSE(parseArgSpec("x=f32[2]").value.str);
  auto list = parseArgSpecList("x=f32[N], mode=str:gelu");
  REQUIRE(list.ok());
  REQUIRE(list.value.size() == 2);
  CHECK(*list.value[1].str == "gelu");
}

TEST_CASE("argspec: every dtype name", "[argspec]") {
  struct Case {
    const char *name;
    DType dtype;
  } cases[] = {{"f32", DType::F32},   {"float32", DType::F32},
               {"f16", DType::F16},   {"float16", DType::F16},
               {"bf16", DType::BF16}, {"bfloat16", DType::BF16},
               {"f64", DType::F64},   {"float64", DType::F64},
               {"i32", DType::I32},   {"int32", DType::I32},
               {"i64", DType::I64},   {"int64", DType::I64},
               {"bool", DType::Bool}};
  for (const Case &c : cases) {
    INFO(c.name);
    auto r = parseArgSpec(std::string("a=") + c.name + "[2]");
    REQUIRE(r.ok());
    CHECK(r.value.dtype == c.dtype);
    CHECK(parseDType(spell(c.dtype)) == c.dtype);
  }
}

TEST_CASE("argspec: lists", "[argspec]") {
  auto r = parseArgSpecList("x=f32[B,784], h=f32[B,20]");
  REQUIRE(r.ok());
  REQUIRE(r.value.size() == 2);
  CHECK(r.value[1].name == "h");
  CHECK(printArgSpecList(r.value) == "x=f32[B,784], h=f32[B,20]");

  auto many =
      parseArgSpecList("x=f32[T,B,I], h=f32[B,H], W_h=f32[I,H], b_y=f32[O],");
  REQUIRE(many.ok());
  CHECK(many.value.size() == 4);

  auto dup = parseArgSpecList("x=f32[3], x=f32[4]");
  CHECK(dup.error == "argument 'x' is specified twice");

  auto bad = parseArgSpecList("x=f32[3], y");
  CHECK(bad.error == "expected '=' in argument spec 'y'");
}

TEST_CASE("argspec: lists and tuples", "[argspec]") {
  auto list = parseArgSpec("xs=[f32[B,3], f32[B,3]]");
  REQUIRE(list.ok());
  CHECK(list.value.isContainer);
  CHECK_FALSE(list.value.isTensor());
  REQUIRE(list.value.elems.size() == 2);
  CHECK(list.value.elems[1].dims[0].symbol == "B");
  CHECK(printArgSpec(list.value) == "xs=[f32[B,3], f32[B,3]]");

  auto tuple = parseArgSpec("hc=( f32[B,H] , (int, f32[2]), float ,)");
  REQUIRE(tuple.ok());
  CHECK(tuple.value.parenthesized);
  REQUIRE(tuple.value.elems.size() == 3);
  CHECK(tuple.value.elems[1].elems[0].scalar == "int");
  CHECK(tuple.value.elems[2].scalar == "float");
  CHECK(printArgSpec(tuple.value) == "hc=(f32[B,H], (int, f32[2]), float)");

  auto ints = parseArgSpec("sizes=int[3]");
  REQUIRE(ints.ok());
  REQUIRE(ints.value.elems.size() == 3);
  CHECK(ints.value.elems[2].scalar == "int");
  CHECK(printArgSpec(ints.value) == "sizes=[int, int, int]");

  // bool[3] stays a tensor of three bools; a list of bools is [bool, bool].
  auto bools = parseArgSpec("m=bool[3]");
  REQUIRE(bools.ok());
  CHECK(bools.value.isTensor());
  auto floats = parseArgSpec("scales=float[2]");
  REQUIRE(floats.ok());
  CHECK(floats.value.elems.size() == 2);

  auto empty = parseArgSpec("xs=[]");
  REQUIRE(empty.ok());
  CHECK(empty.value.isContainer);
  CHECK(empty.value.elems.empty());

  auto runtime = parseArgSpec("mode=str");
  REQUIRE(runtime.ok());
  CHECK(runtime.value.runtimeStr);
  CHECK(printArgSpec(runtime.value) == "mode=str");

  // Commas inside brackets and parentheses separate elements, not specs.
  auto several = parseArgSpecList("x=f32[N], hc=(f32[N], f32[N]), k=int[2]");
  REQUIRE(several.ok());
  CHECK(several.value.size() == 3);
}

TEST_CASE("argspec: bad specs", "[argspec]") {
  struct Case {
    const char *text;
    const char *error;
  } cases[] = {
      {"", "empty argument spec"},
      {"x", "expected '=' in argument spec 'x'"},
      {"x=f33[3]", "unknown dtype 'f33' in argument spec 'x=f33[3]' "
                   "(expected one of f32, f16, bf16, f64, i32, i64, bool)"},
      {"x=f32", "expected '[' after the dtype in argument spec 'x=f32'"},
      {"x=f32[3", "expected ']' in argument spec 'x=f32[3'"},
      {"x=f32[3]z", "unexpected text after ']' in argument spec 'x=f32[3]z' "
                    "(only '?', for an Optional[Tensor] input, may follow)"},
      // "?" "?'" keeps the compiler from reading ??' as a trigraph.
      {"x=f32[3]??", "unexpected text after ']' in argument spec 'x=f32[3]?"
                     "?' "
                     "(only '?', for an Optional[Tensor] input, may follow)"},
      {"x=f32[-3]", "dimension '-3' in argument spec 'x=f32[-3]' must be a "
                    "non-negative integer or a symbolic name"},
      {"x=f32[3,]", "empty dimension in argument spec 'x=f32[3,]'"},
      {"x=f32[3x]", "dimension '3x' in argument spec 'x=f32[3x]' is not a "
                    "valid size"},
      {"=f32[3]", "invalid argument name '' in argument spec '=f32[3]'"},
      {"1x=f32[3]", "invalid argument name '1x' in argument spec '1x=f32[3]'"},
      {"hc=(f32[3], f32[3]", "expected ')' at the end of (f32[3], f32[3] in "
                             "argument spec 'hc=(f32[3], f32[3]'"},
      {"xs=[f32[3],, f32[3]]",
       "empty element in argument spec 'xs=[f32[3],, f32[3]]'"},
      {"xs=[f32[3], integer]",
       "unknown dtype 'integer' in argument spec 'xs=[f32[3], integer]' "
       "(expected one of f32, f16, bf16, f64, i32, i64, bool, or int, "
       "float, bool for a Python scalar)"},
      {"k=int", "unknown dtype 'int' in argument spec 'k=int' (expected one "
                "of f32, f16, bf16, f64, i32, i64, bool)"},
      {"k=int[N]", "'int[N]' in argument spec 'k=int[N]' must give the "
                   "list's length as a number, as in int[3]"},
      {"k=[[[[[[[[[f32[1]]]]]]]]]]",
       "argument spec 'k=[[[[[[[[[f32[1]]]]]]]]]]' nests more than 8 deep"},
  };
  for (const Case &c : cases) {
    INFO(c.text);
    auto r = parseArgSpec(c.text);
    CHECK_FALSE(r.ok());
    CHECK(r.error == c.error);
  }
}

//===- ListedFilesTest.cpp - The checksums of the manifest's "files" -----===//
//
// checksums.test (lit) checks them end to end, on archives kiln writes and
// damages; here are the hash against XXH3's published values, and the
// parser of the manifest's text form, which reads untrusted input.
//
//===----------------------------------------------------------------------===//
#include "../../../runtime/src/ListedFiles.h"

#include <catch2/catch.hpp>

using namespace kiln;

TEST_CASE("xxh3Of is XXH3-64 with seed 0", "[checksums]") {
  CHECK(xxh3Of(nullptr, 0) == 0x2d06800538d394c2u);
  const char *digits = "123456789";
  CHECK(xxh3Of(reinterpret_cast<const uint8_t *>(digits), 9) ==
        0x72dcb18b67a17dffu);
}

TEST_CASE("parseXxh3 takes 16 lowercase hex digits and nothing else",
          "[checksums]") {
  CHECK(parseXxh3("72dcb18b67a17dff") == 0x72dcb18b67a17dffu);
  CHECK(parseXxh3("0000000000000000") == 0u);
  CHECK(parseXxh3("ffffffffffffffff") == UINT64_MAX);
  for (const char *bad : {"", "72dcb18b67a17df", "72dcb18b67a17dff0",
                          "72DCB18B67A17DFF", "0x72dcb18b67a17d",
                          " 72dcb18b67a17df", "72dcb18b67a17dfg"})
    CHECK_FALSE(parseXxh3(bad).has_value());
  CHECK_FALSE(parseXxh3(std::string("72dcb18b\0" "7a17dff", 16)).has_value());
}

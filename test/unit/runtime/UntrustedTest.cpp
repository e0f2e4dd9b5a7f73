//===- UntrustedTest.cpp - Opening and quoting what a user names ----------===//

#include "PythonTestUtil.h"
#include "runtime/src/Untrusted.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

using namespace kiln;
using namespace kiln::test;

TEST_CASE("escaped passes text and UTF-8 through, and escapes the rest",
          "[untrusted]") {
  CHECK(inQuotes("conv1.weight") == "'conv1.weight'");
  CHECK(escaped("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5") ==
        "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5");
  // Control bytes, DEL, and the backslash that escapes start with.
  CHECK(escaped(std::string("a\0b\n\x1b[2J\x7f\\", 10)) ==
        "a\\x00b\\x0a\\x1b[2J\\x7f\\\\");
  // C1 controls, which some terminals obey, even when validly encoded.
  CHECK(escaped("\xc2\x9b" "1m") == "\\xc2\\x9b1m");
  // Invalid UTF-8: a stray continuation byte, a truncated sequence, an
  // overlong form, a surrogate, and a value past U+10FFFF.
  CHECK(escaped("\x80") == "\\x80");
  CHECK(escaped("\xe2\x82") == "\\xe2\\x82");
  CHECK(escaped("\xc0\xaf") == "\\xc0\\xaf");
  CHECK(escaped("\xed\xa0\x80") == "\\xed\\xa0\\x80");
  CHECK(escaped("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");
  CHECK(escaped("\xff") == "\\xff");
}

TEST_CASE("openRegularFile refuses what is not a regular file, at once",
          "[untrusted]") {
  TempDir dir;
  RegularFile file;
  CHECK(openRegularFile(dir / "missing", file) ==
        "cannot open: no such file or directory");
  CHECK(openRegularFile(dir.path(), file) == "not a regular file");
  std::string fifo = dir / "fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  alarm(30); // a regression blocks in open() until a writer comes
  CHECK(openRegularFile(fifo, file) == "not a regular file");
  alarm(0);
  CHECK(openRegularFile("/dev/null", file) == "not a regular file");

  writeFile(dir / "f", "12345");
  REQUIRE(openRegularFile(dir / "f", file) == "");
  CHECK(file.size == 5);
  char bytes[8];
  CHECK(read(file.fd, bytes, sizeof bytes) == 5);
  close(file.fd);
}

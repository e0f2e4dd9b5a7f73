//===- ZipTest.cpp - The .kiln zip layer: writer, reader, atomic writes ---===//
//
// The writer's output is checked three ways: by the runtime's reader, by
// `unzip -t`, and by Python's zipfile, because users open archives with
// those tools too. The reader is fed damaged archives, which must give an
// error every time and never a crash (so these tests are worth running
// under ASan: every damaged archive sits in a buffer of its exact size).
//
//===----------------------------------------------------------------------===//
#include "../../../runtime/src/ZipReader.h"
#include "codegen/archive/ZipWriter.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace kiln;
namespace fs = std::filesystem;

namespace {

class TempDir {
public:
  TempDir() {
    std::string name = fs::temp_directory_path() / "kiln-zip-XXXXXX";
    REQUIRE(mkdtemp(name.data()));
    path = name;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  std::string operator/(const std::string &name) const {
    return (path / name).string();
  }
  fs::path path;
};

void writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  REQUIRE(out.good());
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

int shell(const std::string &command) { return std::system(command.c_str()); }

/// Runs a Python script with the given (shell-safe) arguments.
int python(const TempDir &dir, const std::string &script,
           const std::string &args) {
  std::string scriptPath = dir / "script.py";
  writeFile(scriptPath, script);
  return shell(std::string(KILN_TEST_PYTHON) + " '" + scriptPath + "' " + args);
}

bool read(const std::string &archive, std::vector<ZipEntry> &entries,
          std::string &error) {
  return readZipDirectory(reinterpret_cast<const uint8_t *>(archive.data()),
                          archive.size(), entries, error);
}

/// Reads a damaged archive from a buffer of its exact size, so that any read
/// past the end is a real overrun rather than a peek at the intact original.
bool readCopy(const std::string &archive, size_t size,
              std::vector<ZipEntry> &entries, std::string &error) {
  std::vector<uint8_t> copy(archive.begin(), archive.begin() + size);
  return readZipDirectory(copy.data(), copy.size(), entries, error);
}

std::string dataOf(const std::string &archive, const ZipEntry &entry) {
  return archive.substr(entry.offset, entry.size);
}

using Entries = std::vector<std::pair<std::string, std::string>>;

std::string archiveOf(const Entries &entries) {
  ZipWriter writer;
  for (const auto &[name, data] : entries)
    writer.add(name, data);
  return writer.finish();
}

/// Bytes that vary, so that a misplaced offset shows up as wrong data.
std::string pattern(size_t size, unsigned seed) {
  std::string bytes(size, '\0');
  uint32_t state = seed * 2654435761u + 1;
  for (char &c : bytes) {
    state = state * 1664525u + 1013904223u;
    c = char(state >> 24);
  }
  return bytes;
}

Entries sampleEntries() {
  return {{"manifest.json", R"({"format": "kiln", "format_version": [1, 0]})"},
          {"empty", ""},
          {"source/myfun.py", "@torch.jit.script\ndef myfun(x):\n  return x\n"},
          {"weights/big.bin", pattern(1 << 20, 1)},
          {"weights/odd.bin", pattern(4097, 2)},
          {"donn\xc3\xa9"
           "es/\xc3\xa9.bin",
           "utf-8 name"}};
}

/// Checks the archive's entries, in order, against `expected`.
void checkEntries(const std::string &archive, const Entries &expected) {
  std::vector<ZipEntry> entries;
  std::string error;
  REQUIRE(read(archive, entries, error));
  CHECK(error.empty());
  REQUIRE(entries.size() == expected.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    INFO("entry " << i << ": " << expected[i].first);
    CHECK(entries[i].name == expected[i].first);
    CHECK(entries[i].offset % 64 == 0);
    CHECK(entries[i].size == expected[i].second.size());
    CHECK(dataOf(archive, entries[i]) == expected[i].second);
    CHECK(entries[i].crc32 ==
          crc32Of(reinterpret_cast<const uint8_t *>(expected[i].second.data()),
                  expected[i].second.size()));
  }
}

/// Each entry as Python's zipfile reads it (which checks CRCs as it goes):
/// name length, name, data length, data.
const char *DumpScript = R"(
import struct, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[2], 'wb') as out:
    for info in z.infolist():
        name = info.filename.encode('utf-8')
        data = z.read(info)
        out.write(struct.pack('<I', len(name)) + name)
        out.write(struct.pack('<Q', len(data)) + data)
)";

std::string dumpOf(const Entries &entries) {
  std::string out;
  auto put = [&](uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i)
      out.push_back(char(value >> (8 * i)));
  };
  for (const auto &[name, data] : entries) {
    put(name.size(), 4);
    out += name;
    put(data.size(), 8);
    out += data;
  }
  return out;
}

/// Checks a written archive with unzip (or, without it, Python's testzip)
/// and reads it back through Python's zipfile.
void checkWithTools(const TempDir &dir, const std::string &path,
                    const Entries &expected) {
  if (shell("command -v unzip >/dev/null 2>&1") == 0) {
    CHECK(shell("unzip -tq '" + path + "' >/dev/null") == 0);
  } else {
    CHECK(shell(std::string(KILN_TEST_PYTHON) +
                " -c 'import sys, zipfile; "
                "sys.exit(zipfile.ZipFile(sys.argv[1]).testzip() is not None)' "
                "'" +
                path + "'") == 0);
  }
  std::string dump = dir / "dump.bin";
  REQUIRE(python(dir, DumpScript, "'" + path + "' '" + dump + "'") == 0);
  CHECK(readFile(dump) == dumpOf(expected));
}

uint32_t get32(const std::string &bytes, size_t pos) {
  uint32_t value = 0;
  for (int i = 3; i >= 0; --i)
    value = value << 8 | uint8_t(bytes[pos + i]);
  return value;
}

void put32(std::string &bytes, size_t pos, uint32_t value) {
  for (int i = 0; i < 4; ++i)
    bytes[pos + i] = char(value >> (8 * i));
}

/// The central directory's offset, from the (non-Zip64) end record.
size_t directoryOffsetOf(const std::string &archive) {
  return get32(archive, archive.size() - 22 + 16);
}

} // namespace

TEST_CASE("ZipWriter entries read back in order, aligned", "[zip]") {
  Entries entries = sampleEntries();
  std::string archive = archiveOf(entries);
  checkEntries(archive, entries);
  // Deterministic: the same entries give the same bytes.
  CHECK(archiveOf(entries) == archive);
}

TEST_CASE("An empty ZipWriter gives an empty archive", "[zip]") {
  std::string archive = ZipWriter().finish();
  CHECK(archive.size() == 22);
  checkEntries(archive, {});
  TempDir dir;
  writeFile(dir / "empty.kiln", archive);
  std::string dump = dir / "dump.bin";
  REQUIRE(python(dir, DumpScript,
                 "'" + (dir / "empty.kiln") + "' '" + dump + "'") == 0);
  CHECK(readFile(dump).empty());
}

TEST_CASE("unzip and Python's zipfile accept ZipWriter's output", "[zip]") {
  TempDir dir;
  Entries entries = sampleEntries();
  std::string path = dir / "model.kiln";
  REQUIRE(writeFileAtomically(path, archiveOf(entries)) == "");
  checkWithTools(dir, path, entries);
}

TEST_CASE("ZipWriter switches to Zip64 past 65535 entries", "[zip]") {
  Entries entries;
  for (int i = 0; i < 70000; ++i)
    entries.push_back(
        {"w/" + std::to_string(i), i % 3 ? pattern(i % 200, unsigned(i)) : ""});
  std::string archive = archiveOf(entries);
  // The Zip64 end record and its locator sit before the classic end record.
  REQUIRE(get32(archive, archive.size() - 22 - 20) == 0x07064b50);
  REQUIRE(get32(archive, archive.size() - 22 - 20 - 56) == 0x06064b50);
  checkEntries(archive, entries);

  TempDir dir;
  std::string path = dir / "many.kiln";
  REQUIRE(writeFileAtomically(path, archive) == "");
  checkWithTools(dir, path, entries);

  // Damage anywhere in the end records is caught or harmless.
  std::vector<ZipEntry> parsed;
  std::string error;
  for (size_t pos = archive.size() - 22 - 20 - 56; pos < archive.size();
       ++pos) {
    std::string damaged = archive;
    damaged[pos] ^= 0xff;
    if (read(damaged, parsed, error))
      CHECK(parsed.size() == entries.size());
    else
      CHECK(!error.empty());
  }
}

// Needs about 9 GB of memory, so it is hidden; run it with "[zip-large]".
TEST_CASE("ZipWriter writes Zip64 sizes for an entry over 4 GiB",
          "[.][zip-large]") {
  std::string big(uint64_t(1) << 32, 'k');
  big += "tail";
  ZipWriter writer;
  writer.add("small", "before");
  writer.add("big", std::move(big));
  writer.add("after", "past 4 GiB");
  std::string archive = writer.finish();
  std::vector<ZipEntry> entries;
  std::string error;
  REQUIRE(read(archive, entries, error));
  REQUIRE(entries.size() == 3);
  CHECK(entries[1].size == (uint64_t(1) << 32) + 4);
  CHECK(archive.substr(entries[1].offset + entries[1].size - 5, 5) == "ktail");
  CHECK(entries[2].offset > (uint64_t(1) << 32));
  CHECK(entries[2].offset % 64 == 0);
  CHECK(dataOf(archive, entries[2]) == "past 4 GiB");
}

TEST_CASE("readZipDirectory rejects every truncation", "[zip]") {
  SECTION("a small archive, cut at every length") {
    std::string archive = archiveOf({{"manifest.json", "{}"},
                                     {"source/a.py", pattern(300, 3)},
                                     {"empty", ""}});
    for (size_t size = 0; size < archive.size(); ++size) {
      INFO("cut at " << size << " of " << archive.size());
      std::vector<ZipEntry> entries;
      std::string error;
      CHECK_FALSE(readCopy(archive, size, entries, error));
      CHECK(!error.empty());
      CHECK(entries.empty());
    }
  }
  SECTION("a 1 MB archive, cut in steps") {
    std::string archive = archiveOf(sampleEntries());
    for (size_t size = 0; size < archive.size(); size += 4999) {
      for (size_t cut : {size, archive.size() - 1 - size / 4999}) {
        INFO("cut at " << cut << " of " << archive.size());
        std::vector<ZipEntry> entries;
        std::string error;
        CHECK_FALSE(readCopy(archive, cut, entries, error));
        CHECK(!error.empty());
      }
    }
  }
}

TEST_CASE("readZipDirectory never accepts a changed directory", "[zip]") {
  Entries expected = sampleEntries();
  std::string archive = archiveOf(expected);
  size_t directory = directoryOffsetOf(archive);
  std::vector<ZipEntry> original, parsed;
  std::string error;
  REQUIRE(read(archive, original, error));

  // A flipped byte in the central directory or end record is either
  // rejected or lies in a field the reader ignores (time, attributes, ...).
  size_t rejected = 0;
  for (size_t pos = directory; pos < archive.size(); ++pos) {
    std::string damaged = archive;
    damaged[pos] ^= 0xff;
    INFO("byte " << pos - directory << " of the central directory");
    if (!readCopy(damaged, damaged.size(), parsed, error)) {
      CHECK(!error.empty());
      ++rejected;
      continue;
    }
    REQUIRE(parsed.size() == original.size());
    for (size_t i = 0; i < parsed.size(); ++i) {
      CHECK(parsed[i].name == original[i].name);
      CHECK(parsed[i].offset == original[i].offset);
      CHECK(parsed[i].size == original[i].size);
      CHECK(parsed[i].crc32 == original[i].crc32);
    }
  }
  CHECK(rejected > (archive.size() - directory) / 2);

  SECTION("a flipped name byte") {
    std::string damaged = archive;
    damaged[directory + 46] ^= 0xff; // the first name: "manifest.json"
    CHECK_FALSE(read(damaged, parsed, error));
    CHECK_THAT(error, Catch::Contains("has a local header that names "
                                      "'manifest.json'"));
  }
}

TEST_CASE("readZipDirectory names an entry that runs past the end", "[zip]") {
  std::string archive = archiveOf({{"x", pattern(100, 4)}});
  size_t directory = directoryOffsetOf(archive);
  // Make both headers claim 100000 bytes: consistent, but past the end.
  for (size_t pos : {size_t(18), size_t(22), directory + 20, directory + 24})
    put32(archive, pos, 100000);
  std::vector<ZipEntry> entries;
  std::string error;
  CHECK_FALSE(read(archive, entries, error));
  CHECK(error == "truncated or corrupt zip archive: entry 'x' extends past the "
                 "end of the file (offset 64 + size 100000 > " +
                     std::to_string(archive.size()) + " bytes)");
}

TEST_CASE("readZipDirectory rejects duplicate names", "[zip]") {
  std::string archive = archiveOf({{"a", "first"}, {"b", "second"}});
  std::vector<ZipEntry> entries;
  std::string error;
  REQUIRE(read(archive, entries, error));
  // Rename "b" to "a" in both of its headers.
  // Entry 1's local header follows entry 0's data directly.
  archive[entries[0].offset + entries[0].size + 30] = 'a';
  size_t directory = directoryOffsetOf(archive);
  size_t second = directory + 46 + 1;
  REQUIRE(archive[second + 46] == 'b');
  archive[second + 46] = 'a';
  CHECK_FALSE(read(archive, entries, error));
  CHECK(error == "corrupt zip archive: duplicate entry 'a'");
}

TEST_CASE("readZipDirectory and archives from Python's zipfile", "[zip]") {
  TempDir dir;
  std::string path = dir / "py.zip";
  SECTION("stored, with an archive comment") {
    REQUIRE(python(dir, R"(
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_STORED) as z:
    z.writestr('manifest.json', b'{}')
    z.writestr('cpu/code.so', bytes(range(256)) * 9)
    z.writestr('empty', b'')
    z.comment = b'PK\x05\x06 is not the end record' * 40
)",
                   "'" + path + "'") == 0);
    std::string archive = readFile(path);
    std::vector<ZipEntry> entries;
    std::string error;
    REQUIRE(read(archive, entries, error));
    REQUIRE(entries.size() == 3);
    CHECK(entries[0].name == "manifest.json");
    CHECK(dataOf(archive, entries[0]) == "{}");
    std::string code;
    for (int i = 0; i < 9 * 256; ++i)
      code.push_back(char(i & 0xff));
    CHECK(entries[1].name == "cpu/code.so");
    CHECK(dataOf(archive, entries[1]) == code);
    CHECK(entries[1].crc32 ==
          crc32Of(reinterpret_cast<const uint8_t *>(code.data()), code.size()));
    CHECK(entries[2].size == 0);
  }
  SECTION("compressed") {
    REQUIRE(python(dir, R"(
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('cpu/code.so', b'\0' * 4096)
)",
                   "'" + path + "'") == 0);
    std::vector<ZipEntry> entries;
    std::string error;
    CHECK_FALSE(read(readFile(path), entries, error));
    CHECK(error == "entry 'cpu/code.so' is compressed (method 8); kiln "
                   "archives store entries uncompressed");
  }
}

TEST_CASE("readZipDirectory rejects what is not a zip archive", "[zip]") {
  const std::string noEnd =
      "truncated or not a zip archive: no end-of-central-directory record";
  std::vector<ZipEntry> entries;
  std::string error;
  CHECK_FALSE(readZipDirectory(nullptr, 0, entries, error));
  CHECK(error == noEnd);
  std::string text;
  for (int i = 0; i < 1000; ++i)
    text += "def myfun(x):\n    return x\n";
  CHECK_FALSE(read(text, entries, error));
  CHECK(error == noEnd);
  std::string elf = "\x7f"
                    "ELF\x02\x01\x01" +
                    std::string(4000, '\0');
  CHECK_FALSE(read(elf, entries, error));
  CHECK(error == noEnd);
  CHECK_FALSE(read(std::string(21, 'P'), entries, error));
  CHECK(error == noEnd);
}

TEST_CASE("crc32Of is the zip CRC-32", "[zip]") {
  const char *check = "123456789";
  CHECK(crc32Of(reinterpret_cast<const uint8_t *>(check), 9) == 0xcbf43926u);
  CHECK(crc32Of(nullptr, 0) == 0);
}

TEST_CASE("writeFileAtomically", "[zip]") {
  TempDir dir;
  auto listing = [&] {
    std::vector<std::string> names;
    for (const auto &item : fs::directory_iterator(dir.path))
      names.push_back(item.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  };

  SECTION("writes and replaces, leaving no temporary behind") {
    std::string path = dir / "model.kiln";
    REQUIRE(writeFileAtomically(path, "first") == "");
    CHECK(readFile(path) == "first");
    std::string big = pattern(3 << 20, 5);
    REQUIRE(writeFileAtomically(path, big) == "");
    CHECK(readFile(path) == big);
    CHECK(listing() == std::vector<std::string>{"model.kiln"});
    // Not mkstemp's 0600: others may read it, as with any compiler output.
    auto perms = fs::status(path).permissions();
    CHECK((perms & fs::perms::owner_read) != fs::perms::none);
    CHECK((perms & fs::perms::owner_write) != fs::perms::none);
  }
  SECTION("into a directory that does not exist") {
    std::string path = dir / "missing/model.kiln";
    CHECK(writeFileAtomically(path, "data") ==
          "cannot write '" + path + "': No such file or directory");
    CHECK_FALSE(fs::exists(dir / "missing"));
    CHECK(listing().empty());
  }
  SECTION("over a directory: the temporary is removed") {
    fs::create_directory(dir / "model.kiln");
    std::string error = writeFileAtomically(dir / "model.kiln", "data");
    CHECK_THAT(error, Catch::StartsWith("cannot write '" +
                                        (dir / "model.kiln") + "': "));
    CHECK(listing() == std::vector<std::string>{"model.kiln"});
    CHECK(fs::is_directory(dir / "model.kiln"));
  }
}

//===- SharedObjectLinker.cpp - One object to a shared object, with LLD ---===//
//
// kiln compile never runs an external program: LLD's ELF driver is linked
// into the tool and called as a library. LLD reads and writes files, so the
// object goes through a private temporary directory that is always removed.
// Undefined symbols are allowed: the only ones left are libc/libm functions
// (memcpy, tanh for f64, ...), which the loading process always provides.
//
//===----------------------------------------------------------------------===//

#include "codegen/cpu/NativeCode.h"

#include "lld/Common/Driver.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

LLD_HAS_DRIVER(elf)

using namespace llvm;

namespace kiln {

bool linkSharedObject(const std::string &object, std::string &sharedObject,
                      std::string &error) {
  SmallString<128> dir;
  if (std::error_code ec = sys::fs::createUniqueDirectory("kiln-link", dir)) {
    error = "cannot create a temporary directory: " + ec.message();
    return false;
  }
  SmallString<128> objectPath(dir), outputPath(dir);
  sys::path::append(objectPath, "code.o");
  sys::path::append(outputPath, "code.so");
  auto cleanup = [&] {
    sys::fs::remove(objectPath);
    sys::fs::remove(outputPath);
    sys::fs::remove(dir);
  };
  {
    std::error_code ec;
    raw_fd_ostream out(objectPath, ec);
    if (ec) {
      error = "cannot write '" + objectPath.str().str() + "': " + ec.message();
      cleanup();
      return false;
    }
    out << object;
  }

  const char *args[] = {"ld.lld",  "-shared", "--build-id=none",
                        "-z",      "noexecstack", "-z", "now",
                        "--hash-style=gnu", "-soname", "kiln-code.so",
                        objectPath.c_str(), "-o", outputPath.c_str()};
  std::string diagnostics;
  raw_string_ostream diagStream(diagnostics);
  // LLD keeps global state; one link at a time.
  static std::mutex lldMutex;
  lld::Result result;
  {
    std::lock_guard<std::mutex> lock(lldMutex);
    result = lld::lldMain(args, diagStream, diagStream,
                          {{lld::Gnu, &lld::elf::link}});
  }
  if (result.retCode != 0) {
    error = "linking the shared object failed:\n" + diagnostics;
    cleanup();
    return false;
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(outputPath);
  if (!buffer) {
    error = "cannot read the linked shared object: " +
            buffer.getError().message();
    cleanup();
    return false;
  }
  sharedObject = (*buffer)->getBuffer().str();
  cleanup();
  return true;
}

} // namespace kiln

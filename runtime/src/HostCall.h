//===- HostCall.h - Failing from a host function (private) ----------------===//
//
// A host function that compiled code calls fails by longjmp-ing back to
// invokeEntry (HostApi.cpp), which skips every frame in between without
// running destructors. Host functions that live outside HostApi.cpp, such
// as the kernel library, therefore fail in two steps: record the message
// while their objects are still in scope, then raise from a frame that
// holds nothing needing destruction.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_HOSTCALL_H
#define KILN_RUNTIME_HOSTCALL_H

#include "ModelImpl.h"

#include "kiln/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

/// Stores the message of the failure about to be raised in the running
/// call's state.
void setCallError(std::string message);

/// Ends the running call with the message setCallError stored, reported at
/// `site` of the manifest's "sites" table. The caller's frame must hold no
/// object with a destructor.
[[noreturn]] void raiseCallError(int64_t site);

/// The threads the running call may use (its model's LoadOptions).
int callThreads();

/// The model of the running call.
const Model::Impl &callModel();

/// For the runtime's unit tests: runs `body(hostApi(), context)` as compiled
/// code runs, in a fresh call of a model whose only run-time checks are
/// `sites`. A raise comes back as the Error Model::run would return; it
/// skips `body`'s frame as it skips compiled code's, so `body` must hold no
/// object with a destructor while it calls a host function that can raise.
__attribute__((visibility("default"))) Result<void>
callWithHostApi(const std::vector<Site> &sites,
                void (*body)(const kiln_host_api *host, void *context),
                void *context);

} // namespace kiln

#endif // KILN_RUNTIME_HOSTCALL_H

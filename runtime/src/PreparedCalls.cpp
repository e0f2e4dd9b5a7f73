//===- PreparedCalls.cpp - Kernel library calls got ready at load ---------===//
//
// The first matmul or convolution of a shape builds a oneDNN primitive
// (JIT-compiling its kernel) and packs the model weight it reads: 20 to
// 400 times a warm call. The compiler records each call of static shapes
// (the manifest's "library_calls", codegen/cpu/LibraryCallRecords.cpp),
// and Model::load hands each to the kernel library in its prepare mode,
// which does all of that and runs nothing, so the first call finds it
// done. No code of the model runs: a record's operands are descriptors
// whose only data the library reads is a weight's, which the manifest
// check placed inside the weight (Manifest.cpp, parseOperand).
//
//===----------------------------------------------------------------------===//

#include "PreparedCalls.h"

#include "BlockCache.h"
#include "KernelLibrary.h"

#include <string>
#include <vector>

namespace kiln {
namespace {

/// What a non-weight operand points at: the library's prepare mode reads
/// no such data, so any address outside the archive will do.
alignas(64) const uint8_t kNotRead[64] = {};

/// A record's operand as compiled code would pass it: an MLIR memref
/// descriptor (kiln/abi.h) in `words`.
struct Descriptor {
  std::vector<int64_t> words;
  kiln_unranked_memref memref;
};

Descriptor describe(const LibraryCall::Operand &operand,
                    const Model::Impl &model) {
  Descriptor d;
  size_t rank = operand.sizes.size();
  d.words.resize(sizeof(kiln_memref) / sizeof(int64_t) + 2 * rank);
  auto *desc = reinterpret_cast<kiln_memref *>(d.words.data());
  bool weight = operand.weight >= 0;
  const void *base =
      weight ? model.weights[size_t(operand.weight)].data : kNotRead;
  desc->allocated = desc->aligned = const_cast<void *>(base);
  desc->offset = weight ? operand.offset : 0;
  for (size_t i = 0; i < rank; ++i) {
    desc->dims[i] = operand.sizes[i];
    desc->dims[rank + i] = operand.strides[i];
  }
  d.memref = {static_cast<int64_t>(rank), desc};
  return d;
}

std::string prepare(const LibraryCall &call, const Model::Impl &model) {
  std::vector<Descriptor> operands;
  for (const LibraryCall::Operand &operand : call.operands)
    operands.push_back(describe(operand, model));
  const kiln_unranked_memref &out = operands.back().memref;
  if (call.op == LibraryCall::Op::Conv2d) {
    const std::vector<int64_t> &p = call.params;
    return prepareConv2d(operands[0].memref, operands[1].memref, out,
                         {p[0], p[1], p[2], p[3], p[4], p[5], p[6]});
  }
  bool bias = operands.size() == 4;
  return prepareMatmul(operands[0].memref, operands[1].memref,
                       bias ? &operands[2].memref : nullptr, out,
                       bias ? static_cast<int32_t>(call.params[0])
                            : KILN_ACTIVATION_NONE);
}

} // namespace

std::string prepareLibraryCalls(const Model::Impl &model) {
  if (model.libraryCalls.empty())
    return "";
  // Inside a call of the model, as the library expects (its weights, its
  // thread count, its packed copies), which nothing here can raise from.
  struct Context {
    const Model::Impl *model;
    std::string error;
  } context = {&model, ""};
  void *args[] = {&context};
  kiln_entry_fn entry = [](void **args, void *) {
    auto *c = static_cast<Context *>(args[0]);
    for (size_t i = 0; i < c->model->libraryCalls.size() && c->error.empty();
         ++i) {
      std::string error = prepare(c->model->libraryCalls[i], *c->model);
      if (!error.empty())
        c->error = "preparing library_calls[" + std::to_string(i) +
                   "] of the manifest: " + error;
    }
  };
  std::vector<void *> live;
  Error error;
  if (!invokeEntry(model, entry, args, nullptr, live, error))
    return error.message;
  return context.error;
}

uint64_t runtimeBlocksAllocated() { return blocksAllocated(); }

} // namespace kiln

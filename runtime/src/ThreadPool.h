//===- ThreadPool.h - The threads compiled code's tiles run on -----------===//
//
// One pool for the whole process, shared by every model and every thread
// that calls run(): however many calls run at once, the pool adds at most
// its own workers to them, so concurrent calls never multiply the threads.
// A parallel loop hands out its chunks to the workers and to the calling
// thread, which works too and returns when every chunk has run. A loop
// started from inside a chunk (nested) runs inline on its thread.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_THREADPOOL_H
#define KILN_RUNTIME_THREADPOOL_H

#include <cstdint>
#include <string>

namespace kiln {

/// The largest thread count a model may ask for.
inline constexpr int kMaxThreads = 256;

/// The threads a parallel loop uses unless a model was loaded with its own
/// count: KILN_NUM_THREADS if set, else the cores this process may run on
/// (its CPU affinity). `error` is set when KILN_NUM_THREADS is malformed;
/// the count is then the cores'.
int defaultThreadCount(std::string *error = nullptr);

/// The C form of a loop body: runs iterations [begin, end).
using LoopBody = void (*)(void *context, int64_t begin, int64_t end);

/// Runs body(context, begin, end) over [0, n), split into chunks, on up to
/// `threads` threads, the caller's included; returns when all have run.
/// Inline (one call over [0, n)) when threads <= 1, n <= 1, or when called
/// from inside a chunk. The first exception a chunk throws is rethrown
/// here once every chunk is done; the others' are dropped.
void parallelFor(LoopBody body, void *context, int64_t n, int threads);

/// Sends the workers that wait for the next loop to sleep at once, instead
/// of after their spin: called before work that has threads of its own
/// (oneDNN's OpenMP team), which would otherwise share the cores with
/// spinning workers. The next parallelFor wakes them.
void stopSpinning();

/// The same for any callable `fn(begin, end)`.
template <typename Fn>
void parallelFor(int64_t n, int threads, Fn &&fn) {
  parallelFor(
      [](void *context, int64_t begin, int64_t end) {
        (*static_cast<Fn *>(context))(begin, end);
      },
      const_cast<void *>(static_cast<const void *>(&fn)), n, threads);
}

} // namespace kiln

#endif // KILN_RUNTIME_THREADPOOL_H

//===- ThreadPool.h - The threads compiled code's tiles run on -----------===//
//
// One team of threads for the whole process: OpenMP's, which oneDNN's
// kernels run on too. Every model and every thread that calls run()
// shares it, one loop or kernel call at a time; a call that finds it busy
// runs on its own thread, so concurrent calls never multiply the threads.
// A parallel loop hands out its chunks to the team, the calling thread
// included, and returns when every chunk has run. A loop started from
// inside a chunk (nested) runs inline on its thread.
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

/// The team, for the life of the claim, to one loop or kernel call of up
/// to `threads` threads: threads() is how many it may use, 1 (the calling
/// thread alone) when `threads` <= 1, when another thread's loop or call
/// has the team, or when claimed from inside a chunk.
class TeamClaim {
public:
  explicit TeamClaim(int threads);
  ~TeamClaim();
  TeamClaim(const TeamClaim &) = delete;
  TeamClaim &operator=(const TeamClaim &) = delete;
  int threads() const { return count; }
  /// Makes the OpenMP regions this thread starts next, oneDNN's kernels,
  /// use threads() threads.
  void lendToOpenMp() const;

private:
  bool held = false;
  int count = 1;
};

/// Runs body(context, begin, end) over [0, n), split into chunks, on up to
/// `threads` threads of the team, the caller's included; returns when all
/// have run. Inline (one call over [0, n)) when the claim gets one thread
/// or n <= 1. The first exception a chunk throws is rethrown here once
/// every chunk is done; the others' are dropped.
void parallelFor(LoopBody body, void *context, int64_t n, int threads);

/// The same for any callable `fn(begin, end)`.
template <typename Fn> void parallelFor(int64_t n, int threads, Fn &&fn) {
  parallelFor([](void *context, int64_t begin,
                 int64_t end) { (*static_cast<Fn *>(context))(begin, end); },
              const_cast<void *>(static_cast<const void *>(&fn)), n, threads);
}

} // namespace kiln

#endif // KILN_RUNTIME_THREADPOOL_H

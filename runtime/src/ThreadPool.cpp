//===- ThreadPool.cpp - The threads compiled code's tiles run on ---------===//
//
// Tiles run on OpenMP's threads, the same team oneDNN's kernels run on
// (Debian's oneDNN is built with OpenMP), so that a model's tile loops and
// its matrix products hand the cores to each other instead of two sets of
// threads spinning on them. The process lends that team to one loop or
// kernel call at a time (TeamClaim); a call on another thread that finds
// it busy runs on its own thread, so concurrent calls never multiply the
// threads. A loop's chunks are claimed with one atomic counter by every
// thread of the team, so a slow thread never holds chunks others could
// run.
//
// The team is libgomp's, reached through the two functions below: the ABI
// GCC compiles `#pragma omp parallel` to, declared here so that any
// compiler (clang's -fopenmp would bring LLVM's runtime, a second team)
// builds this file. ThreadSanitizer cannot see libgomp's own
// synchronization, so the fork and the join are told to it.
//
//===----------------------------------------------------------------------===//
#include "ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <sched.h>

extern "C" {
/// Runs fn(data) on `threads` threads, the caller's included, and returns
/// when all have (flags 0: no proc_bind).
void GOMP_parallel(void (*fn)(void *), void *data, unsigned threads,
                   unsigned flags);
void omp_set_num_threads(int threads);
}

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define KILN_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define KILN_TSAN 1
#endif
#ifdef KILN_TSAN
extern "C" void __tsan_acquire(void *addr);
extern "C" void __tsan_release(void *addr);
#endif

namespace kiln {
namespace {

/// What the team's threads see of each other's memory: ordered by the
/// fork and join, which libgomp makes with futexes ThreadSanitizer does
/// not see.
void acquire([[maybe_unused]] void *addr) {
#ifdef KILN_TSAN
  __tsan_acquire(addr);
#endif
}
void release([[maybe_unused]] void *addr) {
#ifdef KILN_TSAN
  __tsan_release(addr);
#endif
}

/// Chunks per thread: more than one, so that a thread that started late
/// or runs slower takes fewer of them, as PyTorch's parallel_for grains do.
constexpr int64_t kChunksPerThread = 4;

/// Whether a loop or a kernel call has the team (TeamClaim).
std::atomic<bool> teamBusy{false};

/// Set on a thread while it runs chunks: a loop started there runs inline.
thread_local bool insideChunk = false;

struct Job {
  LoopBody body;
  void *context;
  int64_t n, chunk, chunks;
  std::atomic<int64_t> next{0};
  std::mutex mutex; // guards error
  std::exception_ptr error;
};

/// Claims and runs chunks of `job` until none is left; keeps the first
/// exception one threw in `error`. Nothing may leave an OpenMP region by
/// an exception.
void runChunks(Job &job, std::exception_ptr &error) {
  bool outer = insideChunk;
  insideChunk = true;
  for (int64_t c; (c = job.next.fetch_add(1)) < job.chunks;) {
    int64_t begin = c * job.chunk;
    int64_t end = std::min(job.n, begin + job.chunk);
    try {
      job.body(job.context, begin, end);
    } catch (...) {
      if (!error)
        error = std::current_exception();
    }
  }
  insideChunk = outer;
}

/// One thread's part of a loop: the body GOMP_parallel runs on each.
void runTeamPart(void *data) {
  Job &job = *static_cast<Job *>(data);
  acquire(&job);
  std::exception_ptr error;
  runChunks(job, error);
  if (error) {
    std::lock_guard<std::mutex> lock(job.mutex);
    if (!job.error)
      job.error = error;
  }
  release(&job.next);
}

} // namespace

TeamClaim::TeamClaim(int threads) {
  if (std::min(threads, kMaxThreads) > 1 && !insideChunk &&
      !teamBusy.exchange(true, std::memory_order_acquire)) {
    held = true;
    count = std::min(threads, kMaxThreads);
  }
}

TeamClaim::~TeamClaim() {
  if (held)
    teamBusy.store(false, std::memory_order_release);
}

void TeamClaim::lendToOpenMp() const { omp_set_num_threads(count); }

int defaultThreadCount(std::string *error) {
  int cores = 1;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    cores = std::max(1, CPU_COUNT(&set));
  const char *text = std::getenv("KILN_NUM_THREADS");
  if (!text)
    return cores;
  char *end = nullptr;
  errno = 0;
  long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE || value < 1 ||
      value > kMaxThreads) {
    if (error)
      *error = "KILN_NUM_THREADS='" + std::string(text) +
               "': expected a whole number of threads from 1 to " +
               std::to_string(kMaxThreads);
    return cores;
  }
  return static_cast<int>(value);
}

void parallelFor(LoopBody body, void *context, int64_t n, int threads) {
  TeamClaim team(n > 1 ? threads : 1);
  if (team.threads() <= 1) {
    if (n > 0)
      body(context, 0, n);
    return;
  }
  Job job;
  job.body = body;
  job.context = context;
  job.n = n;
  int64_t chunks = std::min<int64_t>(n, team.threads() * kChunksPerThread);
  job.chunk = (n + chunks - 1) / chunks;
  job.chunks = (n + job.chunk - 1) / job.chunk;
  release(&job);
  GOMP_parallel(runTeamPart, &job, static_cast<unsigned>(team.threads()), 0);
  acquire(&job.next);
  if (job.error)
    std::rethrow_exception(job.error);
}

} // namespace kiln

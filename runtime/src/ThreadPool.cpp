//===- ThreadPool.cpp - The threads compiled code's tiles run on ---------===//
//
// A loop is a Job on the caller's stack. Its chunks are claimed with one
// atomic counter, by the caller and by every worker that picks the job up,
// so a slow or busy worker never holds chunks others could run. The job
// stays queued until a claimant finds it exhausted; the caller then waits
// until every chunk has finished and no worker still holds the job, since
// the job dies with the caller's frame.
//
//===----------------------------------------------------------------------===//
#include "ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <sched.h>
#include <thread>
#include <vector>

namespace kiln {
namespace {

/// Chunks per thread: more than one, so that a thread that started late
/// or runs slower takes fewer of them, as PyTorch's parallel_for grains do.
constexpr int64_t kChunksPerThread = 4;

/// How long a worker looks for the next loop, and a caller for the end of
/// its loop, before sleeping: waking a sleeping thread takes tens of
/// microseconds, as long as a whole loop over a megabyte. A model's loops
/// follow each other closely, so the workers stay awake between them, as
/// OpenMP's (much longer) spin before blocking does.
constexpr auto kSpin = std::chrono::microseconds(200);

/// Waits until `done()` or kSpin has passed; returns done().
template <typename Done> bool spinUntil(Done done) {
  auto until = std::chrono::steady_clock::now() + kSpin;
  while (!done()) {
    if (std::chrono::steady_clock::now() > until)
      return false;
#if defined(__x86_64__)
    __builtin_ia32_pause();
#endif
  }
  return true;
}

struct Job {
  LoopBody body;
  void *context;
  int64_t n, chunk, chunks;
  std::atomic<int64_t> next{0};
  // Guarded by the pool's mutex.
  int64_t finished = 0;
  int holders = 0;
  std::exception_ptr error;
  /// Every chunk ran and no worker holds the job; set under the mutex.
  std::atomic<bool> complete{false};
};

/// Set by stopSpinning, cleared by the next loop: spinning workers sleep.
std::atomic<bool> sleepNow{false};

/// Set on the pool's workers and on a caller while it runs chunks: a loop
/// started there runs inline.
thread_local bool insideChunk = false;

/// Claims and runs chunks of `job` until none is left; returns how many
/// ran, and the first exception one threw.
int64_t runChunks(Job &job, std::exception_ptr &error) {
  bool outer = insideChunk;
  insideChunk = true;
  int64_t ran = 0;
  for (int64_t c; (c = job.next.fetch_add(1)) < job.chunks; ++ran) {
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
  return ran;
}

class Pool {
public:
  /// Makes sure `workers` threads exist, as far as the system lets it;
  /// returns how many do.
  int grow(int workers) {
    std::lock_guard<std::mutex> lock(mutex);
    try {
      while (static_cast<int>(threads.size()) < workers)
        threads.emplace_back([this] { work(); });
    } catch (const std::exception &) {
      // No more threads (std::system_error) or no memory for one: the
      // loop runs on those there are, at worst on the caller alone.
    }
    return static_cast<int>(threads.size());
  }

  void run(Job &job, int helpers) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      queue.push_back(&job);
      ++queued;
      sleepNow = false;
    }
    for (int i = 0; i < helpers; ++i)
      ready.notify_one();
    std::exception_ptr error;
    int64_t ran = runChunks(job, error);
    {
      std::lock_guard<std::mutex> lock(mutex);
      settle(job, ran, error);
    }
    if (spinUntil([&] { return job.complete.load(); }))
      return;
    std::unique_lock<std::mutex> lock(mutex);
    finished.wait(lock, [&] { return job.complete.load(); });
  }

private:
  void work() {
    insideChunk = true;
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      if (queue.empty()) {
        lock.unlock();
        spinUntil([&] { return queued.load() > 0 || sleepNow.load(); });
        lock.lock();
        ready.wait(lock, [&] { return !queue.empty(); });
      }
      Job &job = *queue.front();
      ++job.holders;
      lock.unlock();
      std::exception_ptr error;
      int64_t ran = runChunks(job, error);
      lock.lock();
      --job.holders;
      settle(job, ran, error);
    }
  }

  /// Records `ran` finished chunks of `job` (mutex held), takes an
  /// exhausted job off the queue, and wakes its caller when it is done.
  void settle(Job &job, int64_t ran, std::exception_ptr error) {
    job.finished += ran;
    if (error && !job.error)
      job.error = error;
    if (job.next.load() >= job.chunks) {
      auto it = std::find(queue.begin(), queue.end(), &job);
      if (it != queue.end()) {
        queue.erase(it);
        --queued;
      }
    }
    if (job.finished == job.chunks && job.holders == 0) {
      job.complete = true;
      finished.notify_all();
    }
  }

  std::mutex mutex;
  std::condition_variable ready, finished;
  /// A vector, not a deque: it keeps its capacity, where a deque that
  /// jobs pass through allocates a block now and then.
  std::vector<Job *> queue;
  /// queue.size(), for spinning workers to read without the mutex.
  std::atomic<int> queued{0};
  std::vector<std::thread> threads;
};

Pool &pool() {
  // Never destroyed: its workers wait for work until the process exits.
  static Pool *instance = new Pool;
  return *instance;
}

} // namespace

void stopSpinning() { sleepNow = true; }

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
  threads = std::min(threads, kMaxThreads);
  if (threads <= 1 || n <= 1 || insideChunk) {
    if (n > 0)
      body(context, 0, n);
    return;
  }
  Job job;
  job.body = body;
  job.context = context;
  job.n = n;
  int64_t chunks = std::min<int64_t>(n, threads * kChunksPerThread);
  job.chunk = (n + chunks - 1) / chunks;
  job.chunks = (n + job.chunk - 1) / job.chunk;
  Pool &p = pool();
  p.run(job, std::min(threads - 1, p.grow(threads - 1)));
  if (job.error)
    std::rethrow_exception(job.error);
}

} // namespace kiln

// One core's peak f32 multiply-add rate, the roofline of a GEMM: the
// benchmark prints each matrix product's speed as a fraction of it.
//
// Twelve independent accumulators per vector width keep every FMA unit busy
// (Zen and recent Intel cores retire two vector FMAs per cycle with a
// latency of four, so eight chains in flight are needed; twelve leave
// room), and nothing touches memory. The widest vectors the CPU has are
// used (AVX-512, else AVX2+FMA, else SSE, whose multiply and add are not
// fused), chosen at run time so that the file builds without -march flags:
// one loop, instantiated per width inside a function compiled for it.
//
//   peak_fma            prints {"isa": ..., "gflops": ...}
#include <chrono>
#include <cstdio>

namespace {

constexpr int kChains = 12;
constexpr long kIterations = 50'000'000;

typedef float V16 __attribute__((vector_size(64)));
typedef float V8 __attribute__((vector_size(32)));
typedef float V4 __attribute__((vector_size(16)));

/// kChains chains of `n` multiply-adds on vectors V; inlined into a caller
/// compiled for V, where a * x + b is one FMA.
template <typename V>
__attribute__((always_inline)) inline float chains(long n) {
  V acc[kChains];
  for (int i = 0; i < kChains; ++i)
    acc[i] = V{} + float(i);
  const V a = V{} + 0.999999f, b = V{} + 1e-7f;
  for (long k = 0; k < n; ++k)
#pragma GCC unroll 12
    for (int i = 0; i < kChains; ++i)
      acc[i] = acc[i] * a + b;
  float sum = 0;
  for (int i = 0; i < kChains; ++i)
    sum += acc[i][0];
  return sum;
}

__attribute__((target("avx512f"))) float fma512(long n) {
  return chains<V16>(n);
}
__attribute__((target("avx2,fma"))) float fma256(long n) {
  return chains<V8>(n);
}
float mul128(long n) { return chains<V4>(n); }

template <typename Body> double gflops(int lanes, Body body) {
  body(kIterations / 10); // warm the core's clock up
  auto start = std::chrono::steady_clock::now();
  float sink = body(kIterations);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  if (sink == 12345.0f) // keep the result alive
    std::puts("");
  // A multiply and an add per lane and step.
  return double(kIterations) * kChains * lanes * 2 / seconds / 1e9;
}

} // namespace

int main() {
  const char *isa;
  double rate;
  if (__builtin_cpu_supports("avx512f")) {
    isa = "avx512";
    rate = gflops(16, fma512);
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    isa = "avx2+fma";
    rate = gflops(8, fma256);
  } else {
    isa = "sse";
    rate = gflops(4, mul128);
  }
  std::printf("{\"isa\": \"%s\", \"gflops\": %.1f}\n", isa, rate);
  return 0;
}

// One core's peak f32 multiply-add rate, the roofline of a GEMM: the
// benchmark prints each matrix product's speed as a fraction of it.
//
// Twelve independent accumulators per vector width keep every FMA unit busy
// (Zen and recent Intel cores retire two vector FMAs per cycle with a
// latency of four, so eight chains in flight are needed; twelve leave
// room), and nothing touches memory. The widest vectors the CPU has are
// used (AVX-512, else AVX2+FMA, else SSE without FMA), chosen at run time so
// that the file builds without -march flags.
//
//   peak_fma            prints {"isa": ..., "gflops": ...}
#include <immintrin.h>

#include <chrono>
#include <cstdio>

namespace {

constexpr int kChains = 12;
constexpr long kIterations = 50'000'000;

template <typename Body> double gflops(int lanes, int flopsPerLane,
                                       Body body) {
  body(kIterations / 10); // warm the core's clock up
  auto start = std::chrono::steady_clock::now();
  float sink = body(kIterations);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  if (sink == 12345.0f) // keep the result alive
    std::puts("");
  return double(kIterations) * kChains * lanes * flopsPerLane / seconds / 1e9;
}

__attribute__((target("avx512f"))) float fma512(long n) {
  __m512 acc[kChains];
  for (int i = 0; i < kChains; ++i)
    acc[i] = _mm512_set1_ps(float(i));
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
  for (long k = 0; k < n; ++k)
#pragma GCC unroll 12
    for (int i = 0; i < kChains; ++i)
      acc[i] = _mm512_fmadd_ps(acc[i], a, b);
  __m512 sum = acc[0];
  for (int i = 1; i < kChains; ++i)
    sum = _mm512_add_ps(sum, acc[i]);
  return _mm512_reduce_add_ps(sum);
}

__attribute__((target("avx2,fma"))) float fma256(long n) {
  __m256 acc[kChains];
  for (int i = 0; i < kChains; ++i)
    acc[i] = _mm256_set1_ps(float(i));
  const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
  for (long k = 0; k < n; ++k)
#pragma GCC unroll 12
    for (int i = 0; i < kChains; ++i)
      acc[i] = _mm256_fmadd_ps(acc[i], a, b);
  float out[8];
  __m256 sum = acc[0];
  for (int i = 1; i < kChains; ++i)
    sum = _mm256_add_ps(sum, acc[i]);
  _mm256_storeu_ps(out, sum);
  return out[0] + out[7];
}

float mul128(long n) {
  __m128 acc[kChains];
  for (int i = 0; i < kChains; ++i)
    acc[i] = _mm_set1_ps(float(i));
  const __m128 a = _mm_set1_ps(0.999999f), b = _mm_set1_ps(1e-7f);
  for (long k = 0; k < n; ++k)
#pragma GCC unroll 12
    for (int i = 0; i < kChains; ++i)
      acc[i] = _mm_add_ps(_mm_mul_ps(acc[i], a), b);
  float out[4];
  _mm_storeu_ps(out, acc[0]);
  return out[0];
}

} // namespace

int main() {
  const char *isa;
  double rate;
  if (__builtin_cpu_supports("avx512f")) {
    isa = "avx512";
    rate = gflops(16, 2, fma512);
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    isa = "avx2+fma";
    rate = gflops(8, 2, fma256);
  } else {
    isa = "sse";
    rate = gflops(4, 2, mul128);
  }
  std::printf("{\"isa\": \"%s\", \"gflops\": %.1f}\n", isa, rate);
  return 0;
}

// RUN: kiln-opt %s --kiln-expand-math | FileCheck %s

// f32 erf is one rational function of the clamped input (FastErf.cpp):
// no interval selects, one division, and the result clamped to [-1, 1].
// CHECK-LABEL: func.func @erf_vector
// CHECK:         arith.minimumf
// CHECK:         arith.maximumf
// CHECK:         arith.mulf
// CHECK-COUNT-6: math.fma
// CHECK-COUNT-4: math.fma
// CHECK:         arith.divf
// CHECK-NOT:     arith.select
// CHECK:         arith.minimumf
// CHECK:         arith.maximumf
// CHECK-NOT:     math.erf
func.func @erf_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.erf %x : vector<16xf32>
  return %0 : vector<16xf32>
}

// f64 keeps MLIR's path (libm), which this pattern does not touch.
// CHECK-LABEL: func.func @erf_f64
// CHECK:         math.erf
func.func @erf_f64(%x: f64) -> f64 {
  %0 = math.erf %x : f64
  return %0 : f64
}

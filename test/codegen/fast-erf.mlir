// RUN: kiln-opt %s --kiln-expand-math | FileCheck %s

// f32 erf is one rational function of the clamped input (FastErf.cpp):
// no interval selects, one division, and the result clamped to [-1, 1].
// The clamps are compare-and-select, which keep NaN and lower to one
// vmaxps or vminps each, not arith.minimumf/maximumf.
// CHECK-LABEL: func.func @erf_vector
// CHECK-NOT:     arith.minimumf
// CHECK-NOT:     arith.maximumf
// CHECK:         arith.cmpf olt
// CHECK-NEXT:    arith.select
// CHECK:         arith.cmpf ogt
// CHECK-NEXT:    arith.select
// CHECK:         arith.mulf
// CHECK-COUNT-6: math.fma
// CHECK-COUNT-4: math.fma
// CHECK:         arith.divf
// CHECK:         arith.cmpf olt
// CHECK-NEXT:    arith.select
// CHECK:         arith.cmpf ogt
// CHECK-NEXT:    arith.select
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

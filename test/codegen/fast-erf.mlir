// RUN: kiln-opt %s --kiln-expand-math | FileCheck %s

// f32 erf is one rational function of the clamped input (FastErf.cpp):
// no interval selects, one division, and the result clamped to [-1, 1].
// The clamps are compare-and-select, which keep NaN and lower to one
// vmaxps or vminps each, not arith.minimumf/maximumf. With z = t * t, the
// numerator is a scale times three monic quadratics and the denominator
// two; the scale is folded into the first quadratic, whose add is an fma,
// and every other quadratic is one add and one fma.
// CHECK-LABEL: func.func @erf_vector
// CHECK-NOT:     arith.minimumf
// CHECK-NOT:     arith.maximumf
// CHECK:         arith.cmpf olt
// CHECK-NEXT:    arith.select
// CHECK:         arith.cmpf ogt
// CHECK-NEXT:    %[[T:.*]] = arith.select
// CHECK-NEXT:    %[[Z:.*]] = arith.mulf %[[T]], %[[T]]
// CHECK-NEXT:    %[[S:.*]] = math.fma %[[Z]]
// CHECK-NEXT:    %[[P1:.*]] = math.fma %[[S]], %[[Z]]
// CHECK-NEXT:    %[[A2:.*]] = arith.addf %[[Z]]
// CHECK-NEXT:    %[[Q2:.*]] = math.fma %[[A2]], %[[Z]]
// CHECK-NEXT:    %[[P2:.*]] = arith.mulf %[[P1]], %[[Q2]]
// CHECK-NEXT:    %[[A3:.*]] = arith.addf %[[Z]]
// CHECK-NEXT:    %[[Q3:.*]] = math.fma %[[A3]], %[[Z]]
// CHECK-NEXT:    %[[NUM:.*]] = arith.mulf %[[P2]], %[[Q3]]
// CHECK-NEXT:    %[[B1:.*]] = arith.addf %[[Z]]
// CHECK-NEXT:    %[[D1:.*]] = math.fma %[[B1]], %[[Z]]
// CHECK-NEXT:    %[[B2:.*]] = arith.addf %[[Z]]
// CHECK-NEXT:    %[[D2:.*]] = math.fma %[[B2]], %[[Z]]
// CHECK-NEXT:    %[[DEN:.*]] = arith.mulf %[[D1]], %[[D2]]
// CHECK-NEXT:    %[[R:.*]] = arith.divf %[[NUM]], %[[DEN]]
// CHECK-NEXT:    arith.mulf %[[T]], %[[R]]
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

// The prelude's exact GELU, (x * 0.5) * (erf(x * 0.70710678) + 1.0), is
// one expansion (FastErf.cpp's GeluPattern): 1/sqrt(2) and the halving are
// folded into the scale and the quadratics, so no multiply by 0.70710678
// or 0.5 is left, the input is clamped to +-4 sqrt(2), and the normal CDF
// 0.5 + t * r is one fma, raised to at least 0 (and by the choice of the
// clamp at most 1) before the final multiply.
// CHECK-LABEL: func.func @gelu_vector
// CHECK-SAME:    (%[[X:.*]]: vector<16xf32>)
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-DAG:     %[[LO:.*]] = arith.constant dense<-5.65685415> : vector<16xf32>
// CHECK-DAG:     %[[HALF:.*]] = arith.constant dense<5.000000e-01> : vector<16xf32>
// CHECK-NOT:     math.erf
// CHECK:         arith.cmpf olt, %[[X]], %[[LO]]
// CHECK:         arith.cmpf ogt
// CHECK-NEXT:    %[[T:.*]] = arith.select
// CHECK-NEXT:    arith.mulf %[[T]], %[[T]]
// CHECK-COUNT-6: math.fma
// CHECK:         %[[R:.*]] = arith.divf
// CHECK-NEXT:    %[[C:.*]] = math.fma %[[T]], %[[R]], %[[HALF]]
// CHECK-NEXT:    %[[NEG:.*]] = arith.cmpf olt, %[[C]], %[[ZERO]]
// CHECK-NEXT:    %[[CDF:.*]] = arith.select %[[NEG]], %[[ZERO]], %[[C]]
// CHECK-NEXT:    %[[G:.*]] = arith.mulf %[[X]], %[[CDF]]
// CHECK-NEXT:    return %[[G]]
func.func @gelu_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %c = arith.constant dense<0.707106769> : vector<16xf32>
  %half = arith.constant dense<0.5> : vector<16xf32>
  %one = arith.constant dense<1.0> : vector<16xf32>
  %0 = arith.mulf %x, %c : vector<16xf32>
  %1 = math.erf %0 : vector<16xf32>
  %2 = arith.addf %1, %one : vector<16xf32>
  %3 = arith.mulf %x, %half : vector<16xf32>
  %4 = arith.mulf %3, %2 : vector<16xf32>
  return %4 : vector<16xf32>
}

// Each multiply and add may have its operands in either order; scalars
// too.
// CHECK-LABEL: func.func @gelu_scalar_swapped
// CHECK-NOT:     math.erf
// CHECK-COUNT-6: math.fma
// CHECK:         arith.divf
// CHECK-NOT:     math.erf
func.func @gelu_scalar_swapped(%x: f32) -> f32 {
  %c = arith.constant 0.707106769 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %0 = arith.mulf %c, %x : f32
  %1 = math.erf %0 : f32
  %2 = arith.addf %one, %1 : f32
  %3 = arith.mulf %half, %x : f32
  %4 = arith.mulf %2, %3 : f32
  return %4 : f32
}

// Another scale is not GELU: erf is expanded alone and the multiplies stay.
// CHECK-LABEL: func.func @not_gelu
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:         arith.cmpf olt
// CHECK:         arith.divf
// CHECK:         arith.cmpf ogt
// CHECK:         arith.addf
// CHECK:         arith.mulf
// CHECK:         arith.mulf
// CHECK-NOT:     math.erf
func.func @not_gelu(%x: f32) -> f32 {
  %c = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %0 = arith.mulf %x, %c : f32
  %1 = math.erf %0 : f32
  %2 = arith.addf %1, %one : f32
  %3 = arith.mulf %x, %c : f32
  %4 = arith.mulf %3, %2 : f32
  return %4 : f32
}

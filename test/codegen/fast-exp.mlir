// RUN: kiln-opt %s --kiln-expand-math | FileCheck %s

// f32 exp is 2^(n-1) * 2P(r) (FastExp.cpp): the input clamped to
// [-87.5, 89] by compare-and-select (NaN stays NaN), n rounded by adding
// 1.5 * 2^23, r = x - n ln2 in two fmas, P of degree 6 in six fmas, and
// the scale built from the rounded sum's bits: no round, no float-to-int
// conversion, no select after the clamps.
// CHECK-LABEL: func.func @exp_vector
// CHECK-DAG:     %[[LO:.*]] = arith.constant dense<-8.750000e+01> : vector<16xf32>
// CHECK-DAG:     %[[HI:.*]] = arith.constant dense<8.900000e+01> : vector<16xf32>
// CHECK-DAG:     %[[SHIFT:.*]] = arith.constant dense<0x4B400000> : vector<16xf32>
// CHECK-DAG:     %[[BIAS:.*]] = arith.constant dense<126> : vector<16xi32>
// CHECK-DAG:     %[[EXPONENT:.*]] = arith.constant dense<23> : vector<16xi32>
// CHECK:         %[[BELOW:.*]] = arith.cmpf olt, %arg0, %[[LO]]
// CHECK-NEXT:    %[[X1:.*]] = arith.select %[[BELOW]], %[[LO]], %arg0
// CHECK-NEXT:    %[[ABOVE:.*]] = arith.cmpf ogt, %[[X1]], %[[HI]]
// CHECK-NEXT:    %[[X:.*]] = arith.select %[[ABOVE]], %[[HI]], %[[X1]]
// CHECK-NEXT:    %[[J:.*]] = math.fma %[[X]], %{{.*}}, %[[SHIFT]]
// CHECK-NEXT:    %[[N:.*]] = arith.subf %[[J]], %[[SHIFT]]
// CHECK-NEXT:    %[[R1:.*]] = math.fma %[[N]], %{{.*}}, %[[X]]
// CHECK-NEXT:    %[[R:.*]] = math.fma %[[N]], %{{.*}}, %[[R1]]
// CHECK-COUNT-6: math.fma {{.*}}, %[[R]],
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %[[J]] : vector<16xf32> to vector<16xi32>
// CHECK-NEXT:    %[[BIASED:.*]] = arith.addi %[[BITS]], %[[BIAS]]
// CHECK-NEXT:    %[[SHIFTED:.*]] = arith.shli %[[BIASED]], %[[EXPONENT]]
// CHECK-NEXT:    %[[SCALE:.*]] = arith.bitcast %[[SHIFTED]] : vector<16xi32> to vector<16xf32>
// CHECK-NEXT:    arith.mulf %{{.*}}, %[[SCALE]]
// CHECK-NOT:     math.exp
// CHECK-NOT:     arith.fptosi
func.func @exp_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %0 = math.exp %x : vector<16xf32>
  return %0 : vector<16xf32>
}

// Scalars (what the loop vectorizer widens) get the same expansion.
// CHECK-LABEL: func.func @exp_scalar
// CHECK:         arith.constant 0x4B400000 : f32
// CHECK:         arith.shli
// CHECK-NOT:     math.exp
func.func @exp_scalar(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  return %0 : f32
}

// f64 keeps MLIR's path.
// CHECK-LABEL: func.func @exp_f64
// CHECK:         math.exp
func.func @exp_f64(%x: f64) -> f64 {
  %0 = math.exp %x : f64
  return %0 : f64
}

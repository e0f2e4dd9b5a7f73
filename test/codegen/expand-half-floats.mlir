// RUN: kiln-opt %s --kiln-expand-half-floats | FileCheck %s --check-prefix=SOFT
// RUN: kiln-opt %s --kiln-expand-half-floats=native-f16=1 | FileCheck %s --check-prefix=NATIVE

// Conversions to and from f16 become integer arithmetic on the bits unless
// the target converts in hardware (native-f16, F16C). The bit-exact
// comparison with PyTorch is half-conversions.test.

// SOFT-LABEL: func.func @to_half
// SOFT-NOT: arith.truncf %arg0 : f32 to f16
// SOFT: arith.bitcast %arg0 : f32 to i32
// SOFT: arith.addf
// SOFT: arith.trunci {{.*}} : i32 to i16
// SOFT: arith.bitcast {{.*}} : i16 to f16
// NATIVE-LABEL: func.func @to_half
// NATIVE: arith.truncf %arg0 : f32 to f16
func.func @to_half(%x: f32) -> f16 {
  %h = arith.truncf %x : f32 to f16
  return %h : f16
}

// SOFT-LABEL: func.func @from_half
// SOFT: arith.bitcast %arg0 : f16 to i16
// SOFT: arith.extui {{.*}} : i16 to i32
// SOFT: arith.uitofp
// SOFT: arith.bitcast {{.*}} : i32 to f32
// NATIVE-LABEL: func.func @from_half
// NATIVE: arith.extf %arg0 : f16 to f32
func.func @from_half(%h: f16) -> f32 {
  %x = arith.extf %h : f16 to f32
  return %x : f32
}

// f64 -> f16 and f64 -> bf16 round through f32, as PyTorch's c10::Half and
// c10::BFloat16 do; bf16 is always expanded.
// SOFT-LABEL: func.func @double_to_halves
// NATIVE-LABEL: func.func @double_to_halves
// NATIVE: %[[F:.*]] = arith.truncf %arg0 : f64 to f32
// NATIVE: arith.truncf %[[F]] : f32 to f16
// NATIVE-NOT: f32 to bf16
// NATIVE: return
func.func @double_to_halves(%d: f64) -> (f16, bf16) {
  %h = arith.truncf %d : f64 to f16
  %b = arith.truncf %d : f64 to bf16
  return %h, %b : f16, bf16
}

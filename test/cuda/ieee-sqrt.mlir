// kiln-ieee-sqrt: a kernel's f32 square root is the correctly rounded
// sqrt.rn.f32, as PyTorch's CUDA sqrt is, not libdevice's __nv_sqrtf,
// which LLVM 19 resolves to sqrt.approx.f32. f64 (libdevice's is already
// sqrt.rn.f64) and f16 keep convert-gpu-to-nvvm's lowering.
// RUN: kiln-opt %s --pass-pipeline='builtin.module(gpu.module(kiln-ieee-sqrt))' | FileCheck %s
// CHECK-LABEL: func.func @roots(
// CHECK: %[[A:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%arg0) : (f32) -> f32
// CHECK: %[[B:.*]] = math.sqrt %arg1 : f64
// CHECK: %[[C:.*]] = math.sqrt %arg2 : f16
// CHECK: return %[[A]], %[[B]], %[[C]]
//
// In the PTX of a whole compile (REQUIRES ptxas, for the toolkit's
// libdevice): no approximate square root is left.
// RUN: %if ptxas %{ kiln compile %S/../gpu/Inputs/exact.py --entry root --target=cuda --emit=ptx | FileCheck %s --check-prefix=PTX %}
// PTX: sqrt.rn.f32
// PTX-NOT: sqrt.approx

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @roots(%a: f32, %b: f64, %c: f16) -> (f32, f64, f16) {
      %0 = math.sqrt %a : f32
      %1 = math.sqrt %b : f64
      %2 = math.sqrt %c : f16
      return %0, %1, %2 : f32, f64, f16
    }
  }
}

// Softmax as the fusion pass groups it: the max and exp(x - max) in one
// group, the sum and the scaling by its reciprocal in the next.
//
// For the CPU (default), the exp is one linalg op whose result both the sum
// and the scaling read: the tile keeps it in cache.
// RUN: kiln-opt %s --kiln-lower-to-linalg --cse --canonicalize | FileCheck %s --check-prefix=CPU
// CPU-LABEL: func.func @softmax
// CPU-COUNT-1: math.exp
// CPU-NOT: math.exp
//
// With gpu=true (the GPU's untiled lowering), the exp is fused into both of
// its readers, across the groups' bound: the sum's reduction and the
// scaling each compute exp(x - max) from the input, and no linalg op is left
// that writes the exp alone.
// RUN: kiln-opt %s --kiln-lower-to-linalg=gpu=true --cse --canonicalize | FileCheck %s --check-prefix=GPU
// GPU-LABEL: func.func @softmax
// GPU: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<?x?xf32>)
// GPU: arith.maximumf
// GPU: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%arg0, %{{.*}} : tensor<?x?xf32>, tensor<?x1xf32>)
// GPU: arith.subf
// GPU: math.exp
// GPU: arith.addf
// GPU: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%arg0, %{{.*}}, %{{.*}} : tensor<?x?xf32>, tensor<?x1xf32>, tensor<?x1xf32>)
// GPU: arith.subf
// GPU: math.exp
// GPU: arith.mulf
// GPU-NOT: math.exp
func.func @softmax(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> attributes {kiln.entry} {
  %cst = arith.constant 1.000000e+00 : f64
  %0 = kiln.fusion_group(%arg0) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%arg1: tensor<?x?xf32>):
    %2 = kiln.amax %arg1 {dims = array<i64: 1>, keepdim = true} : tensor<?x?xf32> -> tensor<?x1xf32>
    %3 = kiln.sub %arg1, %2 : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
    %4 = kiln.exp %3 : tensor<?x?xf32>
    kiln.yield %4 : tensor<?x?xf32>
  }
  %1 = kiln.fusion_group(%0, %cst) : (tensor<?x?xf32>, f64) -> tensor<?x?xf32> {
  ^bb0(%arg1: tensor<?x?xf32>, %arg2: f64):
    %2 = kiln.sum %arg1 {dims = array<i64: 1>, keepdim = true} : tensor<?x?xf32> -> tensor<?x1xf32>
    %3 = kiln.div %arg2, %2 : (f64, tensor<?x1xf32>) -> tensor<?x1xf32>
    %4 = kiln.mul %arg1, %3 : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
    kiln.yield %4 : tensor<?x?xf32>
  }
  return %1 : tensor<?x?xf32>
}

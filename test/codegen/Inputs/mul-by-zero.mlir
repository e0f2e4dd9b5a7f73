func.func @f() -> tensor<3xi64> attributes {kiln.entry} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : i64
  %r = kiln.arange %c0, %c3, %c1 : (i64, i64, i64) -> tensor<3xi64>
  %m = kiln.mul %r, %c0 : (tensor<3xi64>, i64) -> tensor<3xi64>
  return %m : tensor<3xi64>
}

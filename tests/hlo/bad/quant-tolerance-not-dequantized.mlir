// E1-EXIT: 1
// E1-EXPECT: checks: 0 passed, 1 failed
// E1-ARGS: --quant-tolerance=1
// --quant-tolerance widens only checks of values that come from a
// uniform_dequantize: a transposed float constant one step (0.25) off its
// expected value still fails.
func.func @f() {
  %d = stablehlo.constant dense<[[1.5, -0.5], [4.25, 2.0]]> : tensor<2x2xf32>
  %t = stablehlo.transpose %d, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %t, dense<[[1.5, 4.25], [-0.5, 2.25]]> : tensor<2x2xf32>
  func.return
}

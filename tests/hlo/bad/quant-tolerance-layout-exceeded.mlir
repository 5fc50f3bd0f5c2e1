// E1-EXIT: 1
// E1-EXPECT: checks: 0 passed, 1 failed
// E1-ARGS: --quant-tolerance=1
// Following a dequantized value through a transpose keeps the bound at
// --quant-tolerance steps: element (0, 0) of the dot's result is expected
// two steps (0.5) below the computed 1.5, and fails after the transpose as
// it does without one (quant-tolerance-dequant-exceeded.mlir).
func.func @f() {
  %a = stablehlo.constant() {value = dense<[[-5, -1, 3, -1, 1], [10, -5, 0, 11, -5], [8, 12, 3, -5, -5]]> : tensor<3x5xi8>} : () -> tensor<3x5x!quant.uniform<i8:f32, 0.5:3>>
  %b = stablehlo.constant() {value = dense<[[1, -2, -2, -4], [-4, 5, 5, -5], [-1, 5, 1, -1], [-1, -2, 5, -5], [0, 4, 0, -4]]> : tensor<5x4xi8>} : () -> tensor<5x4x!quant.uniform<i8:f32, 0.25:0>>
  %acc = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x5x!quant.uniform<i8:f32, 0.5:3>>, tensor<5x4x!quant.uniform<i8:f32, 0.25:0>>) -> tensor<3x4x!quant.uniform<i32:f32, 0.125:0>>
  %r = stablehlo.uniform_quantize %acc : (tensor<3x4x!quant.uniform<i32:f32, 0.125:0>>) -> tensor<3x4x!quant.uniform<i8:f32, 0.25:-1>>
  %d = stablehlo.uniform_dequantize %r : (tensor<3x4x!quant.uniform<i8:f32, 0.25:-1>>) -> tensor<3x4xf32>
  %t = stablehlo.transpose %d, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
  check.expect_almost_eq_const %t, dense<[[1.0, 4.25, -2.75], [-0.5, -14.75, 2.25], [-3.0, -2.25, -0.75], [10.0, 0.75, 0.75]]> : tensor<4x3xf32>
  func.return
}

// RUN: e1npu-hlo run --quant-tolerance=1 %s
// --quant-tolerance follows a dequantized value through operations that
// only move elements: here the dequantized result of
// quant-tolerance-dequant.mlir's dot is transposed, reshaped, sliced and
// concatenated before the check, and the element one step (0.25) off still
// passes with --quant-tolerance=1 (without it, or with a check of an
// unrelated float value, it fails: bad/quant-tolerance-layout-*.mlir).
// Expected values: quant-tolerance-dequant.mlir's, transposed to 4x3,
// reshaped to 12, the first 6 and the last 6 concatenated in swapped order.
// E1-ARGS: --quant-tolerance=1
// E1-NPU: 1
// E1-LSB: 1

func.func @dequantized_layout_within_tolerance() {
  %a = stablehlo.constant() {value = dense<[[-5, -1, 3, -1, 1], [10, -5, 0, 11, -5], [8, 12, 3, -5, -5]]> : tensor<3x5xi8>} : () -> tensor<3x5x!quant.uniform<i8:f32, 0.5:3>>
  %b = stablehlo.constant() {value = dense<[[1, -2, -2, -4], [-4, 5, 5, -5], [-1, 5, 1, -1], [-1, -2, 5, -5], [0, 4, 0, -4]]> : tensor<5x4xi8>} : () -> tensor<5x4x!quant.uniform<i8:f32, 0.25:0>>
  %acc = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x5x!quant.uniform<i8:f32, 0.5:3>>, tensor<5x4x!quant.uniform<i8:f32, 0.25:0>>) -> tensor<3x4x!quant.uniform<i32:f32, 0.125:0>>
  %r = stablehlo.uniform_quantize %acc : (tensor<3x4x!quant.uniform<i32:f32, 0.125:0>>) -> tensor<3x4x!quant.uniform<i8:f32, 0.25:-1>>
  %d = stablehlo.uniform_dequantize %r : (tensor<3x4x!quant.uniform<i8:f32, 0.25:-1>>) -> tensor<3x4xf32>
  %t = stablehlo.transpose %d, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %f = stablehlo.reshape %t : (tensor<4x3xf32>) -> tensor<12xf32>
  %lo = stablehlo.slice %f [0:6] : (tensor<12xf32>) -> tensor<6xf32>
  %hi = stablehlo.slice %f [6:12] : (tensor<12xf32>) -> tensor<6xf32>
  %c = stablehlo.concatenate %hi, %lo, dim = 0 : (tensor<6xf32>, tensor<6xf32>) -> tensor<12xf32>
  check.expect_almost_eq_const %c, dense<[-3.0, -2.25, -0.75, 10.0, 0.75, 0.75, 1.5, 4.25, -2.75, -0.5, -14.75, 2.25]> : tensor<12xf32>
  func.return
}

// RUN: e1npu-hlo run --quant-tolerance=1 %s
// --quant-tolerance covers checks of a dequantized result too: the NPU's
// requantization of this dot differs by 1 LSB from StableHLO's float
// decomposition at one element (gen-quant-tolerance.mlir's first case),
// so its dequantized value is one step (0.25) off the expected one;
// with --quant-tolerance=1 a check of the dequantized values accepts one
// step of the quantized operand's scale, as the check of %r does.
// Expected values: (r - (-1)) * 0.25 of gen-quant-tolerance.mlir's r.
// E1-ARGS: --quant-tolerance=1
// E1-NPU: 1
// E1-LSB: 1

func.func @dequantized_check_within_tolerance() {
  %a = stablehlo.constant() {value = dense<[[-5, -1, 3, -1, 1], [10, -5, 0, 11, -5], [8, 12, 3, -5, -5]]> : tensor<3x5xi8>} : () -> tensor<3x5x!quant.uniform<i8:f32, 0.5:3>>
  %b = stablehlo.constant() {value = dense<[[1, -2, -2, -4], [-4, 5, 5, -5], [-1, 5, 1, -1], [-1, -2, 5, -5], [0, 4, 0, -4]]> : tensor<5x4xi8>} : () -> tensor<5x4x!quant.uniform<i8:f32, 0.25:0>>
  %acc = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x5x!quant.uniform<i8:f32, 0.5:3>>, tensor<5x4x!quant.uniform<i8:f32, 0.25:0>>) -> tensor<3x4x!quant.uniform<i32:f32, 0.125:0>>
  %r = stablehlo.uniform_quantize %acc : (tensor<3x4x!quant.uniform<i32:f32, 0.125:0>>) -> tensor<3x4x!quant.uniform<i8:f32, 0.25:-1>>
  %d = stablehlo.uniform_dequantize %r : (tensor<3x4x!quant.uniform<i8:f32, 0.25:-1>>) -> tensor<3x4xf32>
  check.expect_almost_eq_const %d, dense<[[1.5, -0.5, -3.0, 10.0], [4.25, -14.75, -2.25, 0.75], [-2.75, 2.25, -0.75, 0.75]]> : tensor<3x4xf32>
  func.return
}

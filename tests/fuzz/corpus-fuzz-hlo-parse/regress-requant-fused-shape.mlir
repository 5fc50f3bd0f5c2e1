// regress: tests/hlo/bad/requant-fused-shape.mlir
func.func @f() {
  %a = stablehlo.constant dense<1> : tensor<3x4x!quant.uniform<i8:f32, 1.0>>
  %b = stablehlo.constant dense<1> : tensor<4x2x!quant.uniform<i8:f32, 1.0>>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4x!quant.uniform<i8:f32, 1.0>>, tensor<4x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>
  %q = stablehlo.uniform_quantize %r : (tensor<3x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) -> tensor<2x3x!quant.uniform<i8:f32, 1.0>>
  func.return
}

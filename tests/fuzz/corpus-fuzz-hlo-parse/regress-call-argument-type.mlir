// regress: tests/hlo/bad/call-argument-type.mlir 
func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<2x3x!quant.uniform<i8:f32, 1.0>>
  %b = stablehlo.constant dense<1> : tensor<3x2x!quant.uniform<i8:f32, 1.0>>
  %r = func.call @g(%a, %b) : (tensor<2x3x!quant.uniform<i8:f32, 1.0>>, tensor<3x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>>
  func.return
}
func.func @g(%x: tensor<2x3x!quant.uniform<i8:f32, 1.0>>, %w: tensor<3x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>> {
  %r = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 1.0>>, tensor<3x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>>
  func.return %r : tensor<2x2x!quant.uniform<i8:f32, 1.0>>
}

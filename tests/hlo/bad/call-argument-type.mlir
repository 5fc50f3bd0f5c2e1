// E1-EXIT: 1
// E1-EXPECT: @g: argument 1 of type tensor<3x2x!quant.uniform<i8>>, declared tensor<3x2x!quant.uniform<i8>> (quantization parameters differ)
// A call checked only its arguments' shapes. @g's dot was placed on the
// NPU for weights quantized per output column (3 scales), and requantized
// a per-tensor argument with them (past its one scale). A call's
// arguments and results must have the declared types.
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

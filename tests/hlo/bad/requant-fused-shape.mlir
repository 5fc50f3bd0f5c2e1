// E1-EXIT: 1
// E1-EXPECT: stablehlo.uniform_quantize (line 12): operand shapes differ
// A uniform_quantize of a quantized int8 dot into a type of another shape
// (same element count) was fused into the NPU op, whose fixed-point
// requantization read the dot's per-axis scales at the other shape's
// index (past the two scales). Only a same-shape uniform_quantize is
// fused now; this one runs on the CPU, which refuses it.
func.func @f() {
  %a = stablehlo.constant dense<1> : tensor<3x4x!quant.uniform<i8:f32, 1.0>>
  %b = stablehlo.constant dense<1> : tensor<4x2x!quant.uniform<i8:f32, 1.0>>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4x!quant.uniform<i8:f32, 1.0>>, tensor<4x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>
  %q = stablehlo.uniform_quantize %r : (tensor<3x2x!quant.uniform<i8:f32:1, {1.0, 2.0}>>) -> tensor<2x3x!quant.uniform<i8:f32, 1.0>>
  func.return
}

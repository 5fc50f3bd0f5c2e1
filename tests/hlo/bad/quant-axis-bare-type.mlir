// E1-EXIT: 2
// E1-EXPECT: quant-axis-bare-type.mlir:9:96: stablehlo.uniform_quantize: quantization axis 3 beyond rank 0
// A per-axis quantized element type outside tensor<...> is a rank-0 type:
// its axis was never checked against the rank, and quantizing read the
// channel index from an uninitialized array. Bare types are now checked
// like tensor types.
func.func @f() {
  %a = stablehlo.constant dense<1.0> : tensor<f32>
  %b = stablehlo.uniform_quantize %a : (tensor<f32>) -> !quant.uniform<i8:f32:3, {0.1:1,0.2:2}>
  func.return
}

// regress: tests/hlo/bad/quant-axis-bare-type.mlir  
func.func @f() {
  %a = stablehlo.constant dense<1.0> : tensor<f32>
  %b = stablehlo.uniform_quantize %a : (tensor<f32>) -> !quant.uniform<i8:f32:3, {0.1:1,0.2:2}>
  func.return
}

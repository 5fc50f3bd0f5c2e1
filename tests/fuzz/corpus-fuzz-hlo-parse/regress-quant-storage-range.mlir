// regress: tests/hlo/bad/quant-storage-range.mlir 
func.func @f() {
  %a = stablehlo.constant dense<1.0e30> : tensor<f32>
  %b = stablehlo.uniform_quantize %a : (tensor<f32>) -> tensor<!quant.uniform<i32<-9223372036854775807:9223372036854775807>:f32, 1.0e-30>>
  func.return
}

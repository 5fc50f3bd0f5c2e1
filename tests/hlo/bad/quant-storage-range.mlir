// E1-EXIT: 2
// E1-EXPECT: quant-storage-range.mlir:9:124: !quant.uniform type: storage range -9223372036854775807:9223372036854775807 outside i32's -2147483648:2147483647
// A storage range wider than the storage type let quantization convert
// 9.2e18 to an integer (UBSan: float-cast-overflow) and zero points
// overflow the dequantization's subtraction. The range must lie within
// the storage type.
func.func @f() {
  %a = stablehlo.constant dense<1.0e30> : tensor<f32>
  %b = stablehlo.uniform_quantize %a : (tensor<f32>) -> tensor<!quant.uniform<i32<-9223372036854775807:9223372036854775807>:f32, 1.0e-30>>
  func.return
}

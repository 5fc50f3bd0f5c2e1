// E1-EXIT: 2
// E1-EXPECT: unsupported-complex.mlir:4:56: tensor type: complex element types are not supported
func.func @f() {
  %a = stablehlo.constant dense<1.0> : tensor<2xcomplex<f32>>
  func.return
}

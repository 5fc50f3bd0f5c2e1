// regress: tests/hlo/bad/quant-into-integer.mlir  
func.func @f() {
  %a = stablehlo.constant dense<[2, 4]> : tensor<2x!quant.uniform<i8:f32, 0.5>>
  %r = stablehlo.add %a, %a : (tensor<2x!quant.uniform<i8:f32, 0.5>>, tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xi8>
  func.return
}

// regress: tests/hlo/bad/reshape-element-type.mlir
func.func @f() {
  %a = stablehlo.constant dense<9223372036854775807> : tensor<2x2xi64>
  %b = stablehlo.reshape %a : (tensor<2x2xi64>) -> tensor<1x1x2x2xi8>
  %r = stablehlo.custom_call @e1.attention_qk(%b, %b) : (tensor<1x1x2x2xi8>, tensor<1x1x2x2xi8>) -> tensor<1x1x2x2xi32>
  func.return
}

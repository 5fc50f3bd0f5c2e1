// regress: tests/hlo/bad/convert-no-operand.mlir 
func.func @f() {
  %a = "stablehlo.convert"() : () -> tensor<2x2xi32>
  %b = stablehlo.constant dense<1> : tensor<2x2xi8>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xi32>, tensor<2x2xi8>) -> tensor<2x2xi32>
  func.return
}

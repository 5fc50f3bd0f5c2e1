// E1-EXIT: 1
// E1-EXPECT: stablehlo.convert (line 8): 1 operands and 1 results expected
// A generic convert without an operand feeding an int8 dot: the NPU
// placement looked through it for an int8 source and read its operand
// list, NULL (UBSan, at load). The placement now needs one operand; the
// run refuses the convert.
func.func @f() {
  %a = "stablehlo.convert"() : () -> tensor<2x2xi32>
  %b = stablehlo.constant dense<1> : tensor<2x2xi8>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xi32>, tensor<2x2xi8>) -> tensor<2x2xi32>
  func.return
}

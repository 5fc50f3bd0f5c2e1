// E1-EXIT: 1
// E1-EXPECT: stablehlo.dot_general (line 8): result dimension 1 is 3, expected 2
// The result must be batch x lhs free x rhs free (2x2 here): a 2x3 result
// has the right rank but not the right shape, on the NPU path too.
func.func @f() {
  %a = stablehlo.constant dense<1> : tensor<2x3xi8>
  %b = stablehlo.constant dense<1> : tensor<3x2xi8>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x3xi32>
  func.return
}

// E1-EXIT: 1
// E1-EXPECT: stablehlo.dot_general (line 7): contracting dimension pair 0: sizes 3 and 4 differ
func.func @f() {
  %a = stablehlo.constant dense<1> : tensor<2x3xi8>
  %b = stablehlo.constant dense<1> : tensor<4x2xi8>
  // 3 != 4: the contraction does not match
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<4x2xi8>) -> tensor<2x2xi32>
  func.return
}

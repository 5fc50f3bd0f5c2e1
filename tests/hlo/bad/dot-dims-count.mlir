// E1-EXIT: 1
// E1-EXPECT: stablehlo.dot_general (line 7): 1 lhs and 2 rhs batching dimensions
// Batching dimensions must pair up, one lhs dimension for each rhs one.
func.func @f() {
  %a = stablehlo.constant dense<1> : tensor<2x2x3xi8>
  %b = stablehlo.constant dense<1> : tensor<2x2x3xi8>
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0, 1], contracting_dims = [2] x [2] : (tensor<2x2x3xi8>, tensor<2x2x3xi8>) -> tensor<2x2xi32>
  func.return
}

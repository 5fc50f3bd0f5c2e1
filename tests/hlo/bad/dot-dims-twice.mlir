// E1-EXIT: 1
// E1-EXPECT: stablehlo.dot_general (line 8): contracting dimension pair 1 (1, 0) names a dimension twice
// A dimension may be contracted (or batched) once: [1, 1] would read the
// lhs's dimension 1 twice and leave the result shape undefined.
func.func @f() {
  %a = stablehlo.constant dense<1> : tensor<2x3xi8>
  %b = stablehlo.constant dense<1> : tensor<3x3xi8>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1, 1] x [1, 0] : (tensor<2x3xi8>, tensor<3x3xi8>) -> tensor<2xi32>
  func.return
}

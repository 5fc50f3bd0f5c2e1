// E1-EXIT: 1
// E1-EXPECT: stablehlo.dot_general (line 7): batching dimension pair 0 (0, 3) outside ranks 3 and 3
// The generic form's dimension numbers are checked the same way.
func.func @f() {
  %a = stablehlo.constant dense<1> : tensor<2x2x3xi8>
  %b = stablehlo.constant dense<1> : tensor<2x3x2xi8>
  %r = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [3], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<2x2x3xi8>, tensor<2x3x2xi8>) -> tensor<2x2x2xi32>
  func.return
}

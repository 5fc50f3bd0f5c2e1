// E1-EXIT: 1
// E1-EXPECT: stablehlo.dot_general (line 10): contracting dimension pair 0 (8, 0) outside ranks 2 and 2
// Found by fuzz-hlo-parse in CI: a contracting dimension past the lhs's
// rank indexed the NPU lowering's int[8] of used dimensions (UBSan). The
// int8 operands place it on the NPU; the dimension numbers are now checked
// once (hlo_dot_geom) for every path.
func.func @f() {
  %a = stablehlo.constant dense<1> : tensor<2x3xi8>
  %b = stablehlo.constant dense<1> : tensor<3x2xi8>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [8] x [0] : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
  func.return
}

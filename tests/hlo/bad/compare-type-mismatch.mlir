// E1-EXIT: 1
// E1-EXPECT: stablehlo.compare (line 10): comparison type does not fit the element type
// The spec ties comparison_type to the element type (SIGNED: signed
// integers, UNSIGNED: unsigned and i1, FLOAT/TOTALORDER: floats). A SIGNED
// compare of ui16 was run unsigned without a word (65535 > 1 unsigned,
// -1 < 1 signed).
func.func @f() {
  %a = stablehlo.constant dense<[65535]> : tensor<1xui16>
  %b = stablehlo.constant dense<[1]> : tensor<1xui16>
  %r = stablehlo.compare GT, %a, %b, SIGNED : (tensor<1xui16>, tensor<1xui16>) -> tensor<1xi1>
  check.expect_eq_const %r, dense<[false]> : tensor<1xi1>
  func.return
}

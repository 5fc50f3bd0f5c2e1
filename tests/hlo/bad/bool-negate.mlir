// E1-EXIT: 1
// E1-EXPECT: stablehlo.negate (line 7): not defined for i1 (boolean) operands
// negate: integer, floating-point and complex types only (as divide and
// exponential); -true wrapped to true before.
func.func @f() {
  %a = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %r = stablehlo.negate %a : tensor<2xi1>
  check.expect_eq_const %r, dense<[true, false]> : tensor<2xi1>
  func.return
}

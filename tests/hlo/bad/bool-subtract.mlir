// E1-EXIT: 1
// E1-EXPECT: stablehlo.subtract (line 9): not defined for i1 (boolean) operands
// The spec defines subtract for integer, floating-point and complex types:
// i1 is none of them. 1 - 1 with integer wrap-around used to give an
// answer; now the run names the op.
func.func @f() {
  %a = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %b = stablehlo.constant dense<[true, true]> : tensor<2xi1>
  %r = stablehlo.subtract %a, %b : tensor<2xi1>
  check.expect_eq_const %r, dense<[false, true]> : tensor<2xi1>
  func.return
}

// E1-EXIT: 1
// E1-EXPECT: element 0: got 3, expected 3.5
// E1-EXPECT: checks: 1 passed, 1 failed
// A tolerance is a bound, not a pass: 0.5 away fails a 0.25 tolerance.
func.func @f() {
  %a = stablehlo.constant dense<[3.0]> : tensor<1xf32>
  check.expect_almost_eq_const %a, dense<[3.2]> : tensor<1xf32> {tolerance = 0.25 : f64}
  check.expect_almost_eq_const %a, dense<[3.5]> : tensor<1xf32> {tolerance = 0.25 : f64}
  func.return
}

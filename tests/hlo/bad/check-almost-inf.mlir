// E1-EXIT: 1
// E1-EXPECT: element 0: got inf, expected 3.40282347e+38
// E1-EXPECT: element 0: got -inf, expected inf
// E1-EXPECT: element 0: got nan, expected 1
// E1-EXPECT: checks: 0 passed, 3 failed
// Special values fail where they differ: an infinity is close to nothing
// but itself (however large the finite value), +inf is not -inf, NaN
// matches only NaN.
func.func @f() {
  %a = stablehlo.constant dense<[0x7F800000]> : tensor<1xf32>
  check.expect_almost_eq_const %a, dense<[3.40282347e+38]> : tensor<1xf32>
  %b = stablehlo.constant dense<[0xFF800000]> : tensor<1xf32>
  check.expect_almost_eq_const %b, dense<[0x7F800000]> : tensor<1xf32>
  %c = stablehlo.constant dense<[0x7FC00000]> : tensor<1xf32>
  check.expect_almost_eq_const %c, dense<[1.0]> : tensor<1xf32>
  func.return
}

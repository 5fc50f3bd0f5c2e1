// E1-EXIT: 1
// E1-EXPECT: FAIL  
// E1-EXPECT: element 1: got 22, expected 23
// E1-EXPECT: checks: 1 passed, 1 failed
// A wrong expected value must fail the run.
func.func @f() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
  %r = stablehlo.add %a, %b : tensor<2xi32>
  check.expect_eq_const %r, dense<[11, 23]> : tensor<2xi32>
  check.expect_eq_const %r, dense<[11, 22]> : tensor<2xi32>
  func.return
}

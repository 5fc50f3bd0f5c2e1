// E1-EXIT: 1
// E1-EXPECT: element 0: got -9223372036854775808, expected 1
// E1-EXPECT: checks: 0 passed, 1 failed
// The check subtracted the expected value from the result in int64
// (UBSan: signed overflow for INT64_MIN - 1); it now compares the
// absolute difference without overflow, and fails as it should.
func.func @f() {
  %a = stablehlo.constant dense<-9223372036854775808> : tensor<i64>
  %b = stablehlo.constant dense<1> : tensor<i64>
  check.expect_eq %a, %b : tensor<i64>
  func.return
}

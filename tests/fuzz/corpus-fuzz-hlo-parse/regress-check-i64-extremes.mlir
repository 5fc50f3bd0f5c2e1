// regress: tests/hlo/bad/check-i64-extremes.mlir
func.func @f() {
  %a = stablehlo.constant dense<-9223372036854775808> : tensor<i64>
  %b = stablehlo.constant dense<1> : tensor<i64>
  check.expect_eq %a, %b : tensor<i64>
  func.return
}

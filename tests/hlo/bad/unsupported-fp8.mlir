// E1-EXIT: 2
// E1-EXPECT: FP8/FP6/FP4 element type 'f8E4M3FN' is not supported
func.func @f() {
  %a = stablehlo.constant dense<1.0> : tensor<4xf8E4M3FN>
  func.return
}

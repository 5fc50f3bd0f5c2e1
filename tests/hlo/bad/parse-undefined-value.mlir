// E1-EXIT: 2
// E1-EXPECT: parse-undefined-value.mlir:6:26: stablehlo.add: use of undefined value %c
func.func @f() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  // the next line uses %c, which does not exist
  %b = stablehlo.add %a, %c : tensor<i32>
  func.return
}

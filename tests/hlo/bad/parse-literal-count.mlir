// E1-EXIT: 2
// E1-EXPECT: parse-literal-count.mlir:4:3: stablehlo.constant: literal of 3 elements for a type of 2
func.func @f() {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<2xi32>
  func.return
}

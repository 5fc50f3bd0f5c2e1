// E1-EXIT: 2
// E1-EXPECT: op-without-result.mlir:6:3: stablehlo.constant: one result expected
// Found by fuzz-hlo-parse: an op with no "%x =" ran with no result type
// (a NULL pointer offset under UBSan). It is refused at load.
func.func @f() {
  stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  func.return
}

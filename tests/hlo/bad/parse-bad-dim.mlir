// E1-EXIT: 2
// E1-EXPECT: parse-bad-dim.mlir:4:51: tensor type: expected 'x' after a dimension
func.func @f() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2i32>
  %b = stablehlo.constant dense<[1, 2]> : tensor<2 i32>
  func.return
}

// E1-EXIT: 1
// E1-EXPECT: stablehlo.transpose (line 7): dims are not a permutation of 0..1
// Found by fuzz-hlo-parse: dims [0, 0] read past the operand.
func.func @f() {
  %a = stablehlo.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %b = stablehlo.reshape %a : (tensor<6xi32>) -> tensor<2x3xi32>
  %t = stablehlo.transpose %b, dims = [0, 0] : (tensor<2x3xi32>) -> tensor<2x2xi32>
  func.return
}

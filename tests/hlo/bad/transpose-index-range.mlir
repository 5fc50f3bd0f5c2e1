// E1-EXIT: 1
// E1-EXPECT: stablehlo.transpose (line 7): dims are not a permutation of 0..1
// Found by fuzz-hlo-parse (seed 1): dims [8, 0] read the operand's dims[8]
// before the permutation was checked (UBSan).
func.func @f() {
  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %t = stablehlo.transpose %a, dims = [8, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  func.return
}

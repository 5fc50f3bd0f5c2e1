// E1-EXIT: 1
// E1-EXPECT: @e1.matmul_sparse_s4 (line 8): column 1 has 3 non-zeros in k 0..3 (2:4 allows 2)
// Weights that are not 2:4 sparse are refused, not silently run dense.
func.func @f() {
  %a = stablehlo.constant dense<1> : tensor<1x4xi4>
  %w = stablehlo.constant dense<[[1, 1], [0, 1], [0, 1], [1, 0]]> : tensor<4x2xi4>
  // column 1 holds 1, 1, 1, 0
  %c = stablehlo.custom_call @e1.matmul_sparse_s4(%a, %w) : (tensor<1x4xi4>, tensor<4x2xi4>) -> tensor<1x2xi32>
  func.return
}

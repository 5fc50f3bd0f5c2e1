// regress: tests/hlo/bad/conv-dims-feature-missing.mlir 
func.func @f() {
  %a = stablehlo.constant dense<1.0> : tensor<3x3x1x1xf32>
  %k = stablehlo.constant dense<1.0> : tensor<1x1x3x3xf32>
  %r = stablehlo.convolution(%a, %k) dim_numbers = [0, 1, b, b]x[0, 1, i, o]->[0, 1, b, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x3x1x1xf32>, tensor<1x1x3x3xf32>) -> tensor<3x3x1x3xf32>
  func.return
}

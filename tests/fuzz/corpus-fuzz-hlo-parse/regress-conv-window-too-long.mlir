// regress: tests/hlo/bad/conv-window-too-long.mlir
func.func @f() {
  %a = stablehlo.constant dense<1.0> : tensor<1x3x3x1xf32>
  %k = stablehlo.constant dense<1.0> : tensor<1x1x1x1xf32>
  %r = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x3x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x3x3x1xf32>
  func.return
}

// E1-EXIT: 1
// E1-EXPECT: stablehlo.convolution (line 10): bad dimension numbers
// The lhs dimension numbers name b twice and f never: the feature index
// kept its default 0, a spatial dimension, and the CPU reference read past
// the input (ASan). b, f and each spatial dimension must appear once.
func.func @f() {
  %a = stablehlo.constant dense<1.0> : tensor<3x3x1x1xf32>
  %k = stablehlo.constant dense<1.0> : tensor<1x1x3x3xf32>
  // lhs [0, 1, b, b]: no f
  %r = stablehlo.convolution(%a, %k) dim_numbers = [0, 1, b, b]x[0, 1, i, o]->[0, 1, b, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x3x1x1xf32>, tensor<1x1x3x3xf32>) -> tensor<3x3x1x3xf32>
  func.return
}

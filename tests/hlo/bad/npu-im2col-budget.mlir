// E1-EXIT: 1
// E1-EXPECT: stablehlo.convolution (line 12): the run's CPU work passes 4294967296 steps, its cap (4096 Mi steps; the max_work_mi option or E1NPU_HLO_MAX_WORK raise it)
// E1-NPU: 0
// An int8 convolution placed on the NPU staged its im2col on the host
// without charging the run's work budget: 2^20 output positions times a
// 64x64 window asked for 4 GiB and 2^32 model MACs (over a minute, 4 GB
// resident). The staging is now charged before it is allocated: the op
// fails at once and never reaches the NPU (E1-NPU: 0; it ran there before).
func.func @f() {
  %lhs = stablehlo.constant dense<1> : tensor<1x1024x1024x1xi8>
  %rhs = stablehlo.constant dense<1> : tensor<64x64x1x1xi8>
  %r = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1], pad = [[31, 32], [31, 32]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x1024x1024x1xi8>, tensor<64x64x1x1xi8>) -> tensor<1x1024x1024x1xi32>
  check.expect_eq_const %r, dense<4096> : tensor<1x1024x1024x1xi32>
  func.return
}

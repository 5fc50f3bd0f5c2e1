// E1-EXIT: 1
// E1-EXPECT: stablehlo.reduce_window (line 12): the run's CPU work passes 4294967296 steps, its cap (4096 Mi steps; the max_work_mi option or E1NPU_HLO_MAX_WORK raise it)
// A 65536 x 65536 window over one padded element is 2^32 steps, what one
// op may take, and ran for many minutes. A run's whole CPU work is now
// bounded (2^32 steps by default, 256 per element of max_elements; each
// op costs 256 beside its elements), which also bounds functions calling
// each other exponentially often. The add before it uses up the margin.
func.func @f() {
  %a = stablehlo.constant dense<1.0> : tensor<1x1xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.add %a, %a : tensor<1x1xf32>
  %r = "stablehlo.reduce_window"(%s, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %t = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {window_dimensions = array<i64: 65536, 65536>, padding = dense<[[0, 65535], [0, 65535]]> : tensor<2x2xi64>} : (tensor<1x1xf32>, tensor<f32>) -> tensor<1x1xf32>
  func.return
}

// regress: tests/hlo/bad/run-work-budget.mlir 
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

// regress: tests/hlo/bad/reduce-window-stride-zero.mlir
func.func @f() {
  %a = stablehlo.constant dense<1.0> : tensor<4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  func.return
}

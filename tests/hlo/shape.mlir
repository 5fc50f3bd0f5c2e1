// RUN: e1npu-hlo run %s
// Data movement and reductions, expected values worked by hand.

func.func @reshape_transpose() {
  %a = stablehlo.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %b = stablehlo.reshape %a : (tensor<6xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %b, dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %t = stablehlo.transpose %b, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %t, dense<[[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
  %g = "stablehlo.transpose"(%b) <{permutation = array<i64: 1, 0>}> : (tensor<2x3xi32>) -> tensor<3x2xi32>
  check.expect_eq %g, %t : tensor<3x2xi32>
  func.return
}

// -----

func.func @transpose_rank3() {
  %a = stablehlo.iota dim = 0 : tensor<24xi32>
  %b = stablehlo.reshape %a : (tensor<24xi32>) -> tensor<2x3x4xi32>
  %t = stablehlo.transpose %b, dims = [2, 0, 1] : (tensor<2x3x4xi32>) -> tensor<4x2x3xi32>
  // t[k][i][j] = b[i][j][k] = 12 i + 4 j + k
  check.expect_eq_const %t, dense<[[[0, 4, 8], [12, 16, 20]], [[1, 5, 9], [13, 17, 21]],
                                   [[2, 6, 10], [14, 18, 22]], [[3, 7, 11], [15, 19, 23]]]> : tensor<4x2x3xi32>
  func.return
}

// -----

func.func @broadcast_in_dim() {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %b, dense<[[1, 2, 3], [1, 2, 3]]> : tensor<2x3xi32>
  %c = stablehlo.constant dense<[[7], [8]]> : tensor<2x1xi32>
  %d = stablehlo.broadcast_in_dim %c, dims = [0, 1] : (tensor<2x1xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %d, dense<[[7, 7, 7], [8, 8, 8]]> : tensor<2x3xi32>
  %s = stablehlo.constant dense<2.5> : tensor<f32>
  %e = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %e, dense<2.5> : tensor<2xf32>
  func.return
}

// -----

func.func @slice_both_forms() {
  %a = stablehlo.iota dim = 0 : tensor<10xi32>
  %b = stablehlo.slice %a [1:8:3] : (tensor<10xi32>) -> tensor<3xi32>
  check.expect_eq_const %b, dense<[1, 4, 7]> : tensor<3xi32>
  %m = stablehlo.reshape %a : (tensor<10xi32>) -> tensor<2x5xi32>
  %c = "stablehlo.slice"(%m) <{start_indices = array<i64: 0, 2>, limit_indices = array<i64: 2, 4>, strides = array<i64: 1, 1>}> : (tensor<2x5xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %c, dense<[[2, 3], [7, 8]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @concatenate() {
  %a = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi8>
  %b = stablehlo.constant dense<[[3, 4], [5, 6]]> : tensor<2x2xi8>
  %r = stablehlo.concatenate %a, %b, dim = 0 : (tensor<1x2xi8>, tensor<2x2xi8>) -> tensor<3x2xi8>
  check.expect_eq_const %r, dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>
  %s = stablehlo.concatenate %b, %b, dim = 1 : (tensor<2x2xi8>, tensor<2x2xi8>) -> tensor<2x4xi8>
  check.expect_eq_const %s, dense<[[3, 4, 3, 4], [5, 6, 5, 6]]> : tensor<2x4xi8>
  func.return
}

// -----

func.func @pad_low_high_interior() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.pad %a, %z, low = [1, 0], high = [0, 1], interior = [0, 1] : (tensor<2x2xi32>, tensor<i32>) -> tensor<3x4xi32>
  check.expect_eq_const %r, dense<[[0, 0, 0, 0], [1, 0, 2, 0], [3, 0, 4, 0]]> : tensor<3x4xi32>
  %n = stablehlo.constant dense<9> : tensor<i32>
  %c = stablehlo.pad %a, %n, low = [0, -1], high = [0, 1], interior = [0, 0] : (tensor<2x2xi32>, tensor<i32>) -> tensor<2x2xi32>
  // a negative low edge crops
  check.expect_eq_const %c, dense<[[2, 9], [4, 9]]> : tensor<2x2xi32>
  func.return
}

// -----

func.func @reduce_add_max() {
  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %s, dense<[6, 15]> : tensor<2xi32>
  %m0 = stablehlo.constant dense<-2147483648> : tensor<i32>
  %m = stablehlo.reduce(%a init: %m0) across dimensions = [0] : (tensor<2x3xi32>, tensor<i32>) -> tensor<3xi32>
   reducer(%x: tensor<i32>, %y: tensor<i32>)  {
    %t = stablehlo.maximum %x, %y : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }
  check.expect_eq_const %m, dense<[4, 5, 6]> : tensor<3xi32>
  %f = stablehlo.constant dense<[[0.5, 0.25], [1.0, 2.0]]> : tensor<2x2xf32>
  %fz = stablehlo.constant dense<0.0> : tensor<f32>
  %all = "stablehlo.reduce"(%f, %fz) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %u = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%u) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xf32>, tensor<f32>) -> tensor<f32>
  check.expect_eq_const %all, dense<3.75> : tensor<f32>
  func.return
}

// -----

func.func @reduce_window_max_pool() {
  // 1x4x4x1 NHWC, 2x2 max pool, stride 2
  %a = stablehlo.constant dense<[[[[1], [2], [5], [6]], [[3], [4], [7], [8]],
                                  [[9], [10], [13], [14]], [[11], [12], [15], [-16]]]]> : tensor<1x4x4x1xi8>
  %m = stablehlo.constant dense<-128> : tensor<i8>
  %r = "stablehlo.reduce_window"(%a, %m) ({
  ^bb0(%x: tensor<i8>, %y: tensor<i8>):
    %t = stablehlo.maximum %x, %y : tensor<i8>
    stablehlo.return %t : tensor<i8>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x4x4x1xi8>, tensor<i8>) -> tensor<1x2x2x1xi8>
  check.expect_eq_const %r, dense<[[[[4], [8]], [[12], [15]]]]> : tensor<1x2x2x1xi8>
  func.return
}

// -----

func.func @reduce_window_add_padded() {
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%a, %z) <{padding = dense<[[1, 1]]> : tensor<1x2xi64>, window_dimensions = array<i64: 3>, window_strides = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %t = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
  // padded [0 1 2 3 4 0]: windows at 0 and 2: 0+1+2, 2+3+4
  check.expect_eq_const %r, dense<[3.0, 9.0]> : tensor<2xf32>
  func.return
}

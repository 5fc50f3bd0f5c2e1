// RUN: e1npu-hlo run %s
// More element types and forms; expected values worked by hand.
// Every op here stays on the CPU (float, quantized elementwise, per-axis
// weights along the contracted dimension):
// E1-NPU: 0

func.func @quantized_add() {
  // a = [2, 4, -6] * 0.5 = [1, 2, -3]; b = ([5, -3, 9] - 1) * 0.25 = [1, -1, 2]
  // a + b = [2, 1, -1] -> q = x / 0.5 - 2 = [2, 0, -4]
  %a = stablehlo.constant() {value = dense<[2, 4, -6]> : tensor<3xi8>} : () -> tensor<3x!quant.uniform<i8:f32, 0.5>>
  %b = stablehlo.constant() {value = dense<[5, -3, 9]> : tensor<3xi8>} : () -> tensor<3x!quant.uniform<i8:f32, 0.25:1>>
  %r = stablehlo.add %a, %b : (tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i8:f32, 0.25:1>>) -> tensor<3x!quant.uniform<i8:f32, 0.5:-2>>
  check.expect_eq_const %r, dense<[2, 0, -4]> : tensor<3x!quant.uniform<i8:f32, 0.5:-2>>
  func.return
}

// -----

func.func @uniform_quantize_per_axis() {
  // column 0: scale 0.5, zp 0; column 1: scale 0.1, zp 2
  // [[1.0, 1.0], [-1.0, 0.3]] -> [[2, 10 + 2], [-2, 3 + 2]]
  %x = stablehlo.constant dense<[[1.0, 1.0], [-1.0, 0.3]]> : tensor<2x2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.1:2}>>
  check.expect_eq_const %q, dense<[[2, 12], [-2, 5]]> : tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.1:2}>>
  func.return
}

// -----

func.func @reduce_max_f32() {
  %x = stablehlo.constant dense<[[1.5, -2.0], [0.5, 7.0]]> : tensor<2x2xf32>
  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = stablehlo.reduce(%x init: %m) applies stablehlo.maximum across dimensions = [0] : (tensor<2x2xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %r, dense<[1.5, 7.0]> : tensor<2xf32>
  func.return
}

// -----

func.func @reduce_window_init_fills_padding() {
  // padded input [init, 1, 2, 3] (padding holds the init value 10);
  // windows of 2, stride 2: 10 + (10 + 1) = 21 and 10 + (2 + 3) = 15
  %x = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %i = stablehlo.constant dense<10> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %i) <{padding = dense<[[1, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %s = stablehlo.add %p, %q : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<3xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %r, dense<[21, 15]> : tensor<2xi32>
  func.return
}

// -----

func.func @reduce_window_base_dilation_max() {
  // base dilation 2: [4, h, 9, h, 1] (holes hold init -100); windows of 2:
  // max(4, h) = 4, max(h, 9) = 9, max(9, h) = 9, max(h, 1) = 1
  %x = stablehlo.constant dense<[4, 9, 1]> : tensor<3xi8>
  %i = stablehlo.constant dense<-100> : tensor<i8>
  %r = "stablehlo.reduce_window"(%x, %i) <{base_dilations = array<i64: 2>, window_dimensions = array<i64: 2>}> ({
  ^bb0(%p: tensor<i8>, %q: tensor<i8>):
    %s = stablehlo.maximum %p, %q : tensor<i8>
    stablehlo.return %s : tensor<i8>
  }) : (tensor<3xi8>, tensor<i8>) -> tensor<4xi8>
  check.expect_eq_const %r, dense<[4, 9, 9, 1]> : tensor<4xi8>
  func.return
}

// -----

func.func @select_clamp_f32() {
  %p = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %a = stablehlo.constant dense<[1.25, -8.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[9.0, 0.5]> : tensor<2xf32>
  %s = stablehlo.select %p, %a, %b : tensor<2xi1>, tensor<2xf32>
  check.expect_eq_const %s, dense<[1.25, 0.5]> : tensor<2xf32>
  %lo = stablehlo.constant dense<[0.0, 0.0]> : tensor<2xf32>
  %hi = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %c = stablehlo.clamp %lo, %a, %hi : tensor<2xf32>
  check.expect_eq_const %c, dense<[1.0, 0.0]> : tensor<2xf32>
  func.return
}

// -----

func.func @compare_i1_and_bf16_convert() {
  %a = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %b = stablehlo.constant dense<true> : tensor<2xi1>
  %e = stablehlo.compare EQ, %a, %b, UNSIGNED : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  check.expect_eq_const %e, dense<[true, false]> : tensor<2xi1>
  // bf16 spacing at 1 is 2^-7: 1 + 2^-8 ties to 1.0 (even), 1 + 3 * 2^-8 to 1 + 2^-6
  %f = stablehlo.constant dense<[1.00390625, 1.01171875]> : tensor<2xf32>
  %g = stablehlo.convert %f : (tensor<2xf32>) -> tensor<2xbf16>
  check.expect_eq_const %g, dense<[1.0, 1.015625]> : tensor<2xbf16>
  func.return
}

// -----

func.func @dot_f16_on_cpu() {
  // 2 * 3 + 0.5 * -4 = 4, exact in f16
  %a = stablehlo.constant dense<[[2.0, 0.5]]> : tensor<1x2xf16>
  %b = stablehlo.constant dense<[[3.0], [-4.0]]> : tensor<2x1xf16>
  %r = stablehlo.dot %a, %b : (tensor<1x2xf16>, tensor<2x1xf16>) -> tensor<1x1xf16>
  check.expect_eq_const %r, dense<[[4.0]]> : tensor<1x1xf16>
  func.return
}

// -----

func.func @subtract_multiply_divide_unsigned_and_float() {
  %a = stablehlo.constant dense<[5, 0]> : tensor<2xui8>
  %b = stablehlo.constant dense<[10, 1]> : tensor<2xui8>
  %d = stablehlo.subtract %a, %b : tensor<2xui8>
  check.expect_eq_const %d, dense<[251, 255]> : tensor<2xui8>
  %f = stablehlo.constant dense<[0.5, 1.0e-8]> : tensor<2xf32>
  %g = stablehlo.constant dense<[0.25, 1.0]> : tensor<2xf32>
  // 1e-8 - 1 rounds to -1 in f32 (the spacing below 1 is 2^-24)
  %h = stablehlo.subtract %f, %g : tensor<2xf32>
  check.expect_eq_const %h, dense<[0.25, -1.0]> : tensor<2xf32>
  %u = stablehlo.constant dense<[65536, 3]> : tensor<2xui32>
  %v = stablehlo.constant dense<[65536, 5]> : tensor<2xui32>
  // 2^32 wraps to 0
  %m = stablehlo.multiply %u, %v : tensor<2xui32>
  check.expect_eq_const %m, dense<[0, 15]> : tensor<2xui32>
  %p = stablehlo.constant dense<[7, 5]> : tensor<2xui32>
  %q = stablehlo.constant dense<[2, 0]> : tensor<2xui32>
  // x / 0 sets all bits
  %r = stablehlo.divide %p, %q : tensor<2xui32>
  check.expect_eq_const %r, dense<[3, 4294967295]> : tensor<2xui32>
  func.return
}

// -----

func.func @exponential_f64_f16() {
  %a = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf64>
  %e = stablehlo.exponential %a : tensor<2xf64>
  check.expect_almost_eq_const %e, dense<[1.0, 2.718281828459045]> : tensor<2xf64>
  // f16: e rounds to 1392 * 2^-9 = 2.71875; exp(-inf) = 0
  %h = stablehlo.constant dense<[1.0, 0xFC00]> : tensor<2xf16>
  %k = stablehlo.exponential %h : tensor<2xf16>
  check.expect_eq_const %k, dense<[2.71875, 0.0]> : tensor<2xf16>
  func.return
}

// -----

func.func @slice_concatenate_pad_f32() {
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %s = stablehlo.slice %a [0:3:2, 1:3] : (tensor<3x3xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %s, dense<[[2.0, 3.0], [8.0, 9.0]]> : tensor<2x2xf32>
  %x = stablehlo.constant dense<[[1.5], [2.5]]> : tensor<2x1xf32>
  %y = stablehlo.constant dense<[[3.5], [4.5]]> : tensor<2x1xf32>
  %c = stablehlo.concatenate %x, %y, dim = 1 : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %c, dense<[[1.5, 3.5], [2.5, 4.5]]> : tensor<2x2xf32>
  %v = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %n = stablehlo.constant dense<-1.0> : tensor<f32>
  %p = stablehlo.pad %v, %n, low = [1], high = [0], interior = [2] : (tensor<2xf32>, tensor<f32>) -> tensor<5xf32>
  check.expect_eq_const %p, dense<[-1.0, 1.0, -1.0, -1.0, 2.0]> : tensor<5xf32>
  func.return
}

// -----

func.func @dot_per_axis_on_contracted_dim_stays_on_cpu() {
  // rhs scales per k: {0.5, 0.25} on [[2], [4]] = [1.0, 1.0]; a = [2, 4]
  // 2 * 1 + 4 * 1 = 6 at scale 1
  %a = stablehlo.constant() {value = dense<[[2, 4]]> : tensor<1x2xi8>} : () -> tensor<1x2x!quant.uniform<i8:f32, 1.0>>
  %b = stablehlo.constant() {value = dense<[[2], [4]]> : tensor<2x1xi8>} : () -> tensor<2x1x!quant.uniform<i8:f32:0, {0.5, 0.25}>>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x2x!quant.uniform<i8:f32, 1.0>>, tensor<2x1x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) -> tensor<1x1x!quant.uniform<i32:f32, 1.0>>
  check.expect_eq_const %r, dense<[[6]]> : tensor<1x1x!quant.uniform<i32:f32, 1.0>>
  func.return
}

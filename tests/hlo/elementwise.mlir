// RUN: e1npu-hlo run %s
// Interpreter-style split file: one function per section, expected values
// worked by hand (comments show the arithmetic where it is not obvious).

func.func @add_i8_wraps() {
  %a = stablehlo.constant dense<[127, -128, 5, -1]> : tensor<4xi8>
  %b = stablehlo.constant dense<[1, -1, 6, 1]> : tensor<4xi8>
  %r = stablehlo.add %a, %b : tensor<4xi8>
  // 127+1 = 128 -> -128; -128-1 = -129 -> 127
  check.expect_eq_const %r, dense<[-128, 127, 11, 0]> : tensor<4xi8>
  func.return
}

// -----

func.func @add_ui8_wraps() {
  %a = stablehlo.constant dense<[255, 200, 0]> : tensor<3xui8>
  %b = stablehlo.constant dense<[1, 100, 7]> : tensor<3xui8>
  %r = "stablehlo.add"(%a, %b) : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  // 256 -> 0, 300 -> 44
  check.expect_eq_const %r, dense<[0, 44, 7]> : tensor<3xui8>
  func.return
}

// -----

func.func @add_f32() {
  %a = stablehlo.constant dense<[1.5, -2.25, 1.0e+10]> : tensor<3xf32>
  %b = stablehlo.constant dense<[0.25, 2.25, 1.0]> : tensor<3xf32>
  %r = stablehlo.add %a, %b : tensor<3xf32>
  // 1e10 + 1 is not representable in f32: rounds back to 1e10
  check.expect_eq_const %r, dense<[1.75, 0.0, 1.0e+10]> : tensor<3xf32>
  func.return
}

// -----

func.func @add_bf16_rounds() {
  %a = stablehlo.constant dense<[1.0, 256.0]> : tensor<2xbf16>
  %b = stablehlo.constant dense<[0.00390625, 1.0]> : tensor<2xbf16>
  %r = stablehlo.add %a, %b : tensor<2xbf16>
  // bf16 has 8 significant bits: 1 + 2^-8 and 256 + 1 are ties, round to even
  check.expect_eq_const %r, dense<[1.0, 256.0]> : tensor<2xbf16>
  func.return
}

// -----

func.func @add_f16() {
  %a = stablehlo.constant dense<[0x3C00, 65504.0]> : tensor<2xf16>
  %b = stablehlo.constant dense<[0x3800, 65504.0]> : tensor<2xf16>
  %r = stablehlo.add %a, %b : tensor<2xf16>
  // 1 + 0.5; 65504 + 65504 overflows to +inf (0x7C00)
  check.expect_eq_const %r, dense<[1.5, 0x7C00]> : tensor<2xf16>
  func.return
}

// -----

func.func @subtract_i32() {
  %a = stablehlo.constant dense<[-2147483648, 10]> : tensor<2xi32>
  %b = stablehlo.constant dense<[1, 20]> : tensor<2xi32>
  %r = stablehlo.subtract %a, %b : tensor<2xi32>
  check.expect_eq_const %r, dense<[2147483647, -10]> : tensor<2xi32>
  func.return
}

// -----

func.func @multiply_i16_f64() {
  %a = stablehlo.constant dense<[300, -7]> : tensor<2xi16>
  %b = stablehlo.constant dense<[300, 9]> : tensor<2xi16>
  %r = stablehlo.multiply %a, %b : tensor<2xi16>
  // 90000 mod 65536 = 24464
  check.expect_eq_const %r, dense<[24464, -63]> : tensor<2xi16>
  %c = stablehlo.constant dense<[0.1, 3.0]> : tensor<2xf64>
  %d = stablehlo.multiply %c, %c : tensor<2xf64>
  check.expect_almost_eq_const %d, dense<[0.01, 9.0]> : tensor<2xf64>
  func.return
}

// -----

func.func @max_min_signed_unsigned() {
  %a = stablehlo.constant dense<[-1, 3]> : tensor<2xi32>
  %b = stablehlo.constant dense<[1, -3]> : tensor<2xi32>
  %mx = stablehlo.maximum %a, %b : tensor<2xi32>
  %mn = stablehlo.minimum %a, %b : tensor<2xi32>
  check.expect_eq_const %mx, dense<[1, 3]> : tensor<2xi32>
  check.expect_eq_const %mn, dense<[-1, -3]> : tensor<2xi32>
  %c = stablehlo.constant dense<[4294967295, 1]> : tensor<2xui32>
  %d = stablehlo.constant dense<[2, 2]> : tensor<2xui32>
  %umx = stablehlo.maximum %c, %d : tensor<2xui32>
  check.expect_eq_const %umx, dense<[4294967295, 2]> : tensor<2xui32>
  func.return
}

// -----

func.func @max_f32_nan() {
  %a = stablehlo.constant dense<[0x7FC00000, -0.0, 2.0]> : tensor<3xf32>
  %b = stablehlo.constant dense<[1.0, 0.0, -3.0]> : tensor<3xf32>
  %r = stablehlo.maximum %a, %b : tensor<3xf32>
  // NaN propagates; max(-0, +0) = +0
  check.expect_eq_const %r, dense<[0x7FC00000, 0.0, 2.0]> : tensor<3xf32>
  %m = stablehlo.minimum %a, %b : tensor<3xf32>
  check.expect_eq_const %m, dense<[0x7FC00000, -0.0, -3.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @clamp_scalar_bounds() {
  %lo = stablehlo.constant dense<-2> : tensor<i32>
  %hi = stablehlo.constant dense<5> : tensor<i32>
  %x = stablehlo.constant dense<[-10, 0, 3, 9]> : tensor<4xi32>
  %r = stablehlo.clamp %lo, %x, %hi : (tensor<i32>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  check.expect_eq_const %r, dense<[-2, 0, 3, 5]> : tensor<4xi32>
  func.return
}

// -----

func.func @negate() {
  %a = stablehlo.constant dense<[-128, 5, 0]> : tensor<3xi8>
  %r = stablehlo.negate %a : tensor<3xi8>
  // -(-128) wraps to -128
  check.expect_eq_const %r, dense<[-128, -5, 0]> : tensor<3xi8>
  %f = stablehlo.constant dense<[1.5, 0.0]> : tensor<2xf32>
  %g = stablehlo.negate %f : tensor<2xf32>
  check.expect_eq_const %g, dense<[-1.5, -0.0]> : tensor<2xf32>
  func.return
}

// -----

func.func @divide_i32() {
  %a = stablehlo.constant dense<[7, -7, 5, -2147483648]> : tensor<4xi32>
  %b = stablehlo.constant dense<[2, 2, 0, -1]> : tensor<4xi32>
  %r = stablehlo.divide %a, %b : tensor<4xi32>
  // truncating; x / 0 = -1 (all bits); INT_MIN / -1 = INT_MIN
  check.expect_eq_const %r, dense<[3, -3, -1, -2147483648]> : tensor<4xi32>
  func.return
}

// -----

func.func @divide_f32() {
  %a = stablehlo.constant dense<[1.0, 1.0, -1.0]> : tensor<3xf32>
  %b = stablehlo.constant dense<[4.0, 0.0, 0.0]> : tensor<3xf32>
  %r = stablehlo.divide %a, %b : tensor<3xf32>
  check.expect_eq_const %r, dense<[0.25, 0x7F800000, 0xFF800000]> : tensor<3xf32>
  func.return
}

// -----

func.func @exponential_f32() {
  %a = stablehlo.constant dense<[0.0, 1.0, -1.0, 2.0]> : tensor<4xf32>
  %r = stablehlo.exponential %a : tensor<4xf32>
  // e = 2.7182817 (f32), 1/e = 0.36787945, e^2 = 7.389056
  check.expect_almost_eq_const %r, dense<[1.0, 2.7182817, 0.36787945, 7.389056]> : tensor<4xf32>
  check.expect_close %r, %r, max_ulp_difference = 0 : tensor<4xf32>, tensor<4xf32>
  func.return
}

// -----

func.func @convert_types() {
  %a = stablehlo.constant dense<[-1, 127, -128]> : tensor<3xi8>
  %b = stablehlo.convert %a : (tensor<3xi8>) -> tensor<3xi32>
  check.expect_eq_const %b, dense<[-1, 127, -128]> : tensor<3xi32>
  %c = stablehlo.convert %a : (tensor<3xi8>) -> tensor<3xui8>
  check.expect_eq_const %c, dense<[255, 127, 128]> : tensor<3xui8>
  %d = stablehlo.convert %a : (tensor<3xi8>) -> tensor<3xi1>
  check.expect_eq_const %d, dense<[true, true, true]> : tensor<3xi1>
  %f = stablehlo.constant dense<[2.75, -2.75, 1.0e+10]> : tensor<3xf32>
  %g = stablehlo.convert %f : (tensor<3xf32>) -> tensor<3xi32>
  // toward zero, saturating
  check.expect_eq_const %g, dense<[2, -2, 2147483647]> : tensor<3xi32>
  %h = stablehlo.constant dense<[16777217]> : tensor<1xi32>
  %k = stablehlo.convert %h : (tensor<1xi32>) -> tensor<1xf32>
  // 2^24 + 1 rounds to 2^24 in f32
  check.expect_eq_const %k, dense<[16777216.0]> : tensor<1xf32>
  %m = stablehlo.convert %f : (tensor<3xf32>) -> tensor<3xf16>
  // 1e10 overflows f16
  check.expect_eq_const %m, dense<[2.75, -2.75, 0x7C00]> : tensor<3xf16>
  func.return
}

// -----

func.func @compare_all_directions() {
  %a = stablehlo.constant dense<[-2, -1, 0, 2, 2]> : tensor<5xi32>
  %b = stablehlo.constant dense<[-2, -2, 0, 1, 3]> : tensor<5xi32>
  %eq = stablehlo.compare EQ, %a, %b, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  check.expect_eq_const %eq, dense<[true, false, true, false, false]> : tensor<5xi1>
  %ne = stablehlo.compare NE, %a, %b : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  check.expect_eq_const %ne, dense<[false, true, false, true, true]> : tensor<5xi1>
  %ge = stablehlo.compare GE, %a, %b : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  check.expect_eq_const %ge, dense<[true, true, true, true, false]> : tensor<5xi1>
  %gt = stablehlo.compare GT, %a, %b : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  check.expect_eq_const %gt, dense<[false, true, false, true, false]> : tensor<5xi1>
  %le = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  check.expect_eq_const %le, dense<[true, false, true, false, true]> : tensor<5xi1>
  %lt = stablehlo.compare LT, %a, %b : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
  check.expect_eq_const %lt, dense<[false, false, false, false, true]> : tensor<5xi1>
  func.return
}

// -----

func.func @compare_unsigned_and_float() {
  %a = stablehlo.constant dense<[255, 0]> : tensor<2xui8>
  %b = stablehlo.constant dense<[1, 1]> : tensor<2xui8>
  %r = stablehlo.compare GT, %a, %b, UNSIGNED : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  check.expect_eq_const %r, dense<[true, false]> : tensor<2xi1>
  %f = stablehlo.constant dense<[0x7FC00000, 1.0, -0.0]> : tensor<3xf32>
  %g = stablehlo.constant dense<[0x7FC00000, 1.0, 0.0]> : tensor<3xf32>
  %e = stablehlo.compare EQ, %f, %g, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  // NaN != NaN; -0 == +0
  check.expect_eq_const %e, dense<[false, true, true]> : tensor<3xi1>
  %n = stablehlo.compare NE, %f, %g, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %n, dense<[true, false, false]> : tensor<3xi1>
  func.return
}

// -----

func.func @select_elementwise_and_scalar() {
  %p = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = stablehlo.constant dense<[-1, -2, -3]> : tensor<3xi32>
  %r = stablehlo.select %p, %a, %b : tensor<3xi1>, tensor<3xi32>
  check.expect_eq_const %r, dense<[1, -2, 3]> : tensor<3xi32>
  %q = stablehlo.constant dense<false> : tensor<i1>
  %s = stablehlo.select %q, %a, %b : (tensor<i1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const %s, dense<[-1, -2, -3]> : tensor<3xi32>
  func.return
}

// -----

func.func @iota() {
  %r = stablehlo.iota dim = 1 : tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi32>
  %f = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<3xf32>
  check.expect_eq_const %f, dense<[0.0, 1.0, 2.0]> : tensor<3xf32>
  func.return
}

// RUN: e1npu-hlo run %s
// The spec's edge classes (Documentation/hlo.md, "Edge semantics"): i1
// arithmetic, unsigned wrap-around, division and order, IEEE special
// values in compare and in the checks. Expected values worked by hand.
// f32 specials as hex: 0x7F800000 +inf, 0xFF800000 -inf, 0x7FC00000 NaN.

func.func @bool_add_is_or_multiply_is_and() {
  %a = stablehlo.constant dense<[true, true, false, false]> : tensor<4xi1>
  %b = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %s = stablehlo.add %a, %b : tensor<4xi1>
  // logical or: true + true is true (integer wrap-around would give false)
  check.expect_eq_const %s, dense<[true, true, true, false]> : tensor<4xi1>
  %p = stablehlo.multiply %a, %b : tensor<4xi1>
  check.expect_eq_const %p, dense<[true, false, false, false]> : tensor<4xi1>
  %x = stablehlo.maximum %a, %b : tensor<4xi1>
  check.expect_eq_const %x, dense<[true, true, true, false]> : tensor<4xi1>
  %n = stablehlo.minimum %a, %b : tensor<4xi1>
  check.expect_eq_const %n, dense<[true, false, false, false]> : tensor<4xi1>
  func.return
}

// -----

func.func @bool_reduce_add_is_any() {
  %a = stablehlo.constant dense<[[true, true, false], [false, false, false]]> : tensor<2x3xi1>
  %z = stablehlo.constant dense<false> : tensor<i1>
  %r = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xi1>, tensor<i1>) -> tensor<2xi1>
  // two trues: or gives true, a sum mod 2 would give false
  check.expect_eq_const %r, dense<[true, false]> : tensor<2xi1>
  func.return
}

// -----

func.func @bool_compare_false_below_true() {
  %a = stablehlo.constant dense<[false, true, true]> : tensor<3xi1>
  %b = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %lt = stablehlo.compare LT, %a, %b, UNSIGNED : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  check.expect_eq_const %lt, dense<[true, false, false]> : tensor<3xi1>
  func.return
}

// -----

func.func @unsigned_wrap_divide_order() {
  %a = stablehlo.constant dense<[0, 65535, 40000, 7]> : tensor<4xui16>
  %b = stablehlo.constant dense<[1, 2, 30000, 2]> : tensor<4xui16>
  %d = stablehlo.subtract %a, %b : tensor<4xui16>
  // 0 - 1 wraps to 65535; 40000 - 30000 = 10000
  check.expect_eq_const %d, dense<[65535, 65533, 10000, 5]> : tensor<4xui16>
  %m = stablehlo.multiply %a, %b : tensor<4xui16>
  // 65535 * 2 = 131070 = 65534 mod 65536; 40000 * 30000 = 1.2e9 mod 65536
  // = 1200000000 - 18310 * 65536 = 1200000000 - 1199964160 = 35840
  check.expect_eq_const %m, dense<[0, 65534, 35840, 14]> : tensor<4xui16>
  %q = stablehlo.divide %a, %b : tensor<4xui16>
  // unsigned: 65535 / 2 = 32767 (as i16, -1 / 2 would be 0)
  check.expect_eq_const %q, dense<[0, 32767, 1, 3]> : tensor<4xui16>
  %gt = stablehlo.compare GT, %a, %b, UNSIGNED : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xi1>
  // 65535 > 2 unsigned (as i16 it is -1 < 2)
  check.expect_eq_const %gt, dense<[false, true, true, true]> : tensor<4xi1>
  %x = stablehlo.maximum %a, %b : tensor<4xui16>
  check.expect_eq_const %x, dense<[1, 65535, 40000, 7]> : tensor<4xui16>
  func.return
}

// -----

func.func @unsigned_64_top_bit() {
  %a = stablehlo.constant dense<[18446744073709551615, 9223372036854775808]> : tensor<2xui64>
  %b = stablehlo.constant dense<[1, 3]> : tensor<2xui64>
  %s = stablehlo.add %a, %b : tensor<2xui64>
  check.expect_eq_const %s, dense<[0, 9223372036854775811]> : tensor<2xui64>
  %q = stablehlo.divide %a, %b : tensor<2xui64>
  // (2^64 - 1) / 1; 2^63 / 3 = 3074457345618258602 (remainder 2)
  check.expect_eq_const %q, dense<[18446744073709551615, 3074457345618258602]> : tensor<2xui64>
  %lt = stablehlo.compare LT, %b, %a, UNSIGNED : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xi1>
  check.expect_eq_const %lt, dense<[true, true]> : tensor<2xi1>
  func.return
}

// -----

func.func @compare_nan_ieee() {
  %a = stablehlo.constant dense<[0x7FC00000, 1.0, 0x7F800000, 0.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[0x7FC00000, 0x7FC00000, 0x7F800000, -0.0]> : tensor<4xf32>
  // FLOAT: NaN is unordered (only NE holds); inf == inf; 0 == -0
  %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %eq, dense<[false, false, true, true]> : tensor<4xi1>
  %ne = stablehlo.compare NE, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %ne, dense<[true, true, false, false]> : tensor<4xi1>
  %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %ge, dense<[false, false, true, true]> : tensor<4xi1>
  %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %lt, dense<[false, false, false, false]> : tensor<4xi1>
  func.return
}

// -----

func.func @compare_totalorder() {
  %a = stablehlo.constant dense<[0x7FC00000, 1.0, 0xFF800000, -0.0, 0x7FC00000]> : tensor<5xf32>
  %b = stablehlo.constant dense<[0x7FC00000, 0x7FC00000, 0x7F800000, 0.0, 0x7F800000]> : tensor<5xf32>
  // totalOrder: -inf < -0 < +0 < 1 < +inf < +NaN; NaN equals itself
  %eq = stablehlo.compare EQ, %a, %b, TOTALORDER : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  check.expect_eq_const %eq, dense<[true, false, false, false, false]> : tensor<5xi1>
  %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  check.expect_eq_const %lt, dense<[false, true, true, true, false]> : tensor<5xi1>
  %gt = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type TOTALORDER>} : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  check.expect_eq_const %gt, dense<[false, false, false, false, true]> : tensor<5xi1>
  func.return
}

// -----

func.func @checks_special_values() {
  %a = stablehlo.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000, -0.0]> : tensor<4xf32>
  // equal infinities pass (inf - inf is NaN: no tolerance accepts it),
  // NaN matches NaN (the reference interpreter's areApproximatelyEqual)
  check.expect_almost_eq_const %a, dense<[0x7F800000, 0xFF800000, 0x7FC00000, 0.0]> : tensor<4xf32>
  check.expect_almost_eq %a, %a : tensor<4xf32>
  check.expect_close %a, %a, max_ulp_difference = 0 : tensor<4xf32>, tensor<4xf32>
  check.expect_eq_const %a, dense<[0x7F800000, 0xFF800000, 0x7FC00000, 0.0]> : tensor<4xf32>
  func.return
}

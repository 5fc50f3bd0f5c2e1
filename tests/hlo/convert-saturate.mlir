// RUN: e1npu-hlo run %s
// Float to integer conversions saturate, including to 64 bits where the
// largest value has no double (2^63 - 1, 2^64 - 1): the reference clamped
// to the double above it and converted that, undefined behaviour (UBSan
// float-cast-overflow, found reading the code while fuzzing). Quantizing
// into i32 storage clamps to 2^31 - 1, not to the float above it.

func.func @float_to_int_saturates() {
  %big = stablehlo.constant dense<[1.0e30, -1.0e30, 0x7FC00000, -5.5, 7.9]> : tensor<5xf32>
  %a = stablehlo.convert %big : (tensor<5xf32>) -> tensor<5xi64>
  check.expect_eq_const %a, dense<[9223372036854775807, -9223372036854775808, 0, -5, 7]> : tensor<5xi64>
  %b = stablehlo.convert %big : (tensor<5xf32>) -> tensor<5xui64>
  check.expect_eq_const %b, dense<[18446744073709551615, 0, 0, 0, 7]> : tensor<5xui64>
  %c = stablehlo.convert %big : (tensor<5xf32>) -> tensor<5xi32>
  check.expect_eq_const %c, dense<[2147483647, -2147483648, 0, -5, 7]> : tensor<5xi32>
  %d = stablehlo.convert %big : (tensor<5xf32>) -> tensor<5xui8>
  check.expect_eq_const %d, dense<[255, 0, 0, 0, 7]> : tensor<5xui8>
  func.return
}

// -----

func.func @quantize_i32_storage_saturates() {
  %x = stablehlo.constant dense<[1.0e30, -1.0e30, 3.0]> : tensor<3xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<3xf32>) -> tensor<3x!quant.uniform<i32:f32, 1.0>>
  check.expect_eq_const %q, dense<[2147483647, -2147483648, 3]> : tensor<3x!quant.uniform<i32:f32, 1.0>>
  func.return
}

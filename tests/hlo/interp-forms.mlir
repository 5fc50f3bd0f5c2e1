// RUN: e1npu-hlo run %s
// Forms the interpreter's and the exporters' files use: no blank between a
// check's name and its operand, tolerances, ULP distance, location
// annotations and #loc aliases (stablehlo-opt --mlir-print-debuginfo).

func.func @almost_eq_default_and_tolerance() {
  %a = stablehlo.constant dense<3.0000> : tensor<f64>
  %b = stablehlo.constant dense<3.00005> : tensor<f64>
  check.expect_almost_eq%a, %b : tensor<f64>
  %c = stablehlo.constant dense<3.2> : tensor<f64>
  check.expect_almost_eq %a, %c, tolerance = 0.25 : tensor<f64>
  check.expect_almost_eq_const %a, dense<2.8> : tensor<f64> {tolerance = 0.25 : f64}
  func.return
}

// -----

func.func @close_in_ulps() {
  // f16 spacing at 3.0 is 2^-9 = 0.001953125: 3.004 rounds to 3 + 2 ulps
  %a = stablehlo.constant dense<3.0> : tensor<f16>
  %b = stablehlo.constant dense<3.004> : tensor<f16>
  check.expect_close %a, %b, max_ulp_difference = 2 : tensor<f16>, tensor<f16>
  func.return
}

// -----

module @jit_f {
  func.func public @main() -> (tensor<2xi32> {jax.result_info = ""}) {
    %c = stablehlo.constant dense<[4, -4]> : tensor<2xi32> loc(#loc1)
    %0 = stablehlo.negate %c : tensor<2xi32> loc(#loc2)
    check.expect_eq_const %0, dense<[-4, 4]> : tensor<2xi32> loc(#loc2)
    return %0 : tensor<2xi32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("x.py":3:8)
#loc2 = loc("jit(f)/jit(main)/neg"(#loc1))

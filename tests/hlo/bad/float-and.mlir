// E1-EXIT: 1
// E1-EXPECT: stablehlo.and (line 9): not defined for floating-point operands
// and / or take boolean and integer types only; on f32 the evaluator
// computed a minimum.
func.func @f() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 0.5]> : tensor<2xf32>
  // min would give [1.0, 0.5]
  %r = stablehlo.and %a, %b : tensor<2xf32>
  check.expect_eq_const %r, dense<[1.0, 0.5]> : tensor<2xf32>
  func.return
}

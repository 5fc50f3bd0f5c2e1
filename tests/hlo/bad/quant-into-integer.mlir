// E1-EXIT: 1
// E1-EXPECT: stablehlo.add (line 9): quantized operands need a quantized or float result
// An add of quantized operands into a plain i8 result stored the float
// sums' bits as "i8" values (any 64-bit pattern, past the type's range).
// The result of a quantized op's float decomposition must be quantized
// or float.
func.func @f() {
  %a = stablehlo.constant dense<[2, 4]> : tensor<2x!quant.uniform<i8:f32, 0.5>>
  %r = stablehlo.add %a, %a : (tensor<2x!quant.uniform<i8:f32, 0.5>>, tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xi8>
  func.return
}

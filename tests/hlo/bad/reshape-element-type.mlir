// E1-EXIT: 1
// E1-EXPECT: stablehlo.reshape (line 10): operand 0 of type tensor<2x2xi64> for a result of type tensor<1x1x2x2xi8> (element types differ)
// A reshape from i64 to i8 copied the values as they were, so an "i8"
// held 2^63 - 1 and the attention record's reference multiplied two of
// them (UBSan: signed overflow). Ops that move values (reshape, transpose,
// broadcast, slice, concatenate, pad, select, reduce, reduce_window) need
// the result's element type to be the operand's.
func.func @f() {
  %a = stablehlo.constant dense<9223372036854775807> : tensor<2x2xi64>
  %b = stablehlo.reshape %a : (tensor<2x2xi64>) -> tensor<1x1x2x2xi8>
  %r = stablehlo.custom_call @e1.attention_qk(%b, %b) : (tensor<1x1x2x2xi8>, tensor<1x1x2x2xi8>) -> tensor<1x1x2x2xi32>
  func.return
}

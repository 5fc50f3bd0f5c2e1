// E1-EXIT: 2
// E1-EXPECT: parse-missing-type.mlir:6:1: stablehlo.add: expected ':' and the op's type, found '}'
func.func @f() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %b = stablehlo.add %a, %a
}

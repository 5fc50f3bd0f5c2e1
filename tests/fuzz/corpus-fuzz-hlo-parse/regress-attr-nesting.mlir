// regress: tests/hlo/bad/attr-nesting.mlir 
func.func @f() {
  %a = stablehlo.constant {x = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[} dense<1> : tensor<i32>
  func.return
}

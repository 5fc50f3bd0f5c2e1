// E1-EXIT: 2
// E1-EXPECT: unsupported-custom-call.mlir:5:3: stablehlo.custom_call: unsupported custom_call target '@foo.bar'
func.func @f() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %b = stablehlo.custom_call @foo.bar(%a) : (tensor<i32>) -> tensor<i32>
  func.return
}

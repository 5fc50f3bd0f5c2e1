// E1-EXIT: 2
// E1-EXPECT: unsupported-op.mlir:7:3: stablehlo.sort: unsupported op 'stablehlo.sort'
// The op is reported at load, before any function runs.
func.func @f() {
  %a = stablehlo.constant dense<[3, 1, 2]> : tensor<3xi32>
  check.expect_eq_const %a, dense<[3, 1, 2]> : tensor<3xi32>
  %s = "stablehlo.sort"(%a) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %c = stablehlo.compare LT, %x, %y : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<3xi32>) -> tensor<3xi32>
  func.return
}

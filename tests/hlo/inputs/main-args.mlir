// RUN: e1npu-hlo run --input arg0=x.npy --input 1=w.npy %s
// Run by tests/hlo/run-tests.sh with .npy files it writes:
// x = [[1, -2, 3], [4, 5, -6]] (int8), w = [[1, 0], [0, 1], [2, -1]] (int8);
// x . w = [[1 + 6, -2 - 3], [4 - 12, 5 + 6]] = [[7, -5], [-8, 11]].
// E1-NPU: 1
func.func public @main(%arg0: tensor<2x3xi8> {jax.arg_info = "x"}, %arg1: tensor<3x2xi8>) -> tensor<2x2xi32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
  check.expect_eq_const %0, dense<[[7, -5], [-8, 11]]> : tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

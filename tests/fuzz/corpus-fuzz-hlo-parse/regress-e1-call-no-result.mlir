// RUN: e1npu-hlo run %s
// Geлллллллллллллллллллллллллллллллллллллллллллллллллnerated by tests/hlo/gen.py: a JAX-style module (jit of
// relu(dot(x.astype(int32), w.astype(int32)))): the converts fold into
// one int8 GEMM on the NPU.
// E1-NPU: 1
module @jit_testcase attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<4x5xi32> {jax.result_info = ""}) {
    %0:2 = call @inputs() : () -> (tensor<4x6xi8>, tensor<6x5xi8>)
    %1 = call @expected() : () -> tensor<4x5xi32>
    %2 = stablehlo.convert %0#0 : (tensor<4x6xi8>) -> tensor<4x6xi32>
    %3 = stablehlo.convert %0#1 : (tensor<6x5xi8>) -> tensor<6x5xi32>
    %4 = stablehlo.dot_general %2, %3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xi32>, tensor<6x5xi32>) -> tensor<4x5xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %6 = stablehlo.maximum %4, %5 : tensor<4x5xi32>
    stablehlo.custom_call @e1.matmul_gs_s4(%6, %1) {has_side_effect = true} : (tensor<3x5xi32>, tensor<4x5xi32>) -> ()
    return %6 : tensor<4x5xi32>
  }
  func.func private @inputs() -> (tensor<4x6xi8> {mhlo.layout_mode = "default"}, tensor<6x5xi8> {mhlo.layout_mode = "default"}) {
    %0 = stablehlo.constant dense<"0x57B6E0EB2E9FCD3DA3F883C98DC1CEAF265C1B8FBC5ABD75"> : tensor<4x6xi8>
    %1 = stablehlo.constant dense<[[-103, 23, -113, -2, -120], [71, 18, 99, -99, -33], [121, 88, 123, 73, 97], [-44, -8, 111, -61, -40], [113, -40, -48, -118, 109], [-50, 54, -113, 38, -53]]> : tensor<6x5xi8>
    return %0, %1 : tensor<4x6xi8>, tensor<6x5xi8>
  }
  func.func private @expected() -> (tensor<4x5xi32> {mhlo.layout_mode = "default"}) {
    %0 = stablehlo.constant dense<"0x00000000000000000000000000000000000000000000000000000000AA2D0000A601000000000000E41100000000000000000000721A0000DF340000000000007103000000000000E732000000000000"> : tensor<4x5xi32>
    return %0 : tensor<4x5xi32>
  }
}

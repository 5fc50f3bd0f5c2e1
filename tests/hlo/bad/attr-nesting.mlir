// E1-EXIT: 2
// E1-EXPECT: attr-nesting.mlir:7:96: stablehlo.constant: attribute nested deeper than 64
// Attribute values nest by recursion: 16,000 '[' in a 16 KiB input
// overflowed the stack (ASan). Nesting is refused past 64 levels.
// (65 levels here.)
func.func @f() {
  %a = stablehlo.constant {x = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[} dense<1> : tensor<i32>
  func.return
}

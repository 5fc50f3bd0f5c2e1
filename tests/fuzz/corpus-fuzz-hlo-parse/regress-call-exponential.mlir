// regress: call-exponential 
func.func @main() {
  func.call @f0() : () -> ()
  func.return
}
func.func @f0() {
  func.call @f1() : () -> ()
  func.call @f1() : () -> ()
  func.return
}
func.func @f1() {
  func.call @f2() : () -> ()
  func.call @f2() : () -> ()
  func.return
}
func.func @f2() {
  func.call @f3() : () -> ()
  func.call @f3() : () -> ()
  func.return
}
func.func @f3() {
  func.call @f4() : () -> ()
  func.call @f4() : () -> ()
  func.return
}
func.func @f4() {
  func.call @f5() : () -> ()
  func.call @f5() : () -> ()
  func.return
}
func.func @f5() {
  func.call @f6() : () -> ()
  func.call @f6() : () -> ()
  func.return
}
func.func @f6() {
  func.call @f7() : () -> ()
  func.call @f7() : () -> ()
  func.return
}
func.func @f7() {
  func.call @f8() : () -> ()
  func.call @f8() : () -> ()
  func.return
}
func.func @f8() {
  func.call @f9() : () -> ()
  func.call @f9() : () -> ()
  func.return
}
func.func @f9() {
  func.call @f10() : () -> ()
  func.call @f10() : () -> ()
  func.return
}
func.func @f10() {
  func.call @f11() : () -> ()
  func.call @f11() : () -> ()
  func.return
}
func.func @f11() {
  func.call @f12() : () -> ()
  func.call @f12() : () -> ()
  func.return
}
func.func @f12() {
  func.call @f13() : () -> ()
  func.call @f13() : () -> ()
  func.return
}
func.func @f13() {
  func.call @f14() : () -> ()
  func.call @f14() : () -> ()
  func.return
}
func.func @f14() {
  func.call @f15() : () -> ()
  func.call @f15() : () -> ()
  func.return
}
func.func @f15() {
  func.call @f16() : () -> ()
  func.call @f16() : () -> ()
  func.return
}
func.func @f16() {
  func.call @f17() : () -> ()
  func.call @f17() : () -> ()
  func.return
}
func.func @f17() {
  func.call @f18() : () -> ()
  func.call @f18() : () -> ()
  func.return
}
func.func @f18() {
  func.call @f19() : () -> ()
  func.call @f19() : () -> ()
  func.return
}
func.func @f19() {
  func.call @f20() : () -> ()
  func.call @f20() : () -> ()
  func.return
}
func.func @f20() {
  func.call @f21() : () -> ()
  func.call @f21() : () -> ()
  func.return
}
func.func @f21() {
  func.call @f22() : () -> ()
  func.call @f22() : () -> ()
  func.return
}
func.func @f22() {
  func.call @f23() : () -> ()
  func.call @f23() : () -> ()
  func.return
}
func.func @f23() {
  func.call @f24() : () -> ()
  func.call @f24() : () -> ()
  func.return
}
func.func @f24() {
  func.call @f25() : () -> ()
  func.call @f25() : () -> ()
  func.return
}
func.func @f25() {
  func.call @f26() : () -> ()
  func.call @f26() : () -> ()
  func.return
}
func.func @f26() {
  func.call @f27() : () -> ()
  func.call @f27() : () -> ()
  func.return
}
func.func @f27() {
  func.call @f28() : () -> ()
  func.call @f28() : () -> ()
  func.return
}
func.func @f28() {
  func.call @f29() : () -> ()
  func.call @f29() : () -> ()
  func.return
}
func.func @f29() {
  func.call @f30() : () -> ()
  func.call @f30() : () -> ()
  func.return
}
func.func @f30() {
  func.call @f31() : () -> ()
  func.call @f31() : () -> ()
  func.return
}
func.func @f31() {
  func.call @f32() : () -> ()
  func.call @f32() : () -> ()
  func.return
}
func.func @f32() {
  func.call @f33() : () -> ()
  func.call @f33() : () -> ()
  func.return
}
func.func @f33() {
  func.call @f34() : () -> ()
  func.call @f34() : () -> ()
  func.return
}
func.func @f34() {
  func.call @f35() : () -> ()
  func.call @f35() : () -> ()
  func.return
}
func.func @f35() {
  func.call @f36() : () -> ()
  func.call @f36() : () -> ()
  func.return
}
func.func @f36() {
  func.call @f37() : () -> ()
  func.call @f37() : () -> ()
  func.return
}
func.func @f37() {
  func.call @f38() : () -> ()
  func.call @f38() : () -> ()
  func.return
}
func.func @f38() {
  func.call @f39() : () -> ()
  func.call @f39() : () -> ()
  func.return
}
func.func @f39() {
  func.call @f40() : () -> ()
  func.call @f40() : () -> ()
  func.return
}
func.func @f40() {
  func.return
}

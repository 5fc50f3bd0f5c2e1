#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the hand-made seeds of fuzz-model-mmio (input format: see the
# action switch in fuzz-model-mmio.c). Run from tests/fuzz/.
import struct, os

def u16(v): return struct.pack('<H', v)
def u32(v): return struct.pack('<I', v)
def val(v): return bytes([v]) if v < 64 else b'\x80' + u16(v) if v < 65536 else b'\xc0' + u32(v)
def addr(off): return b'\x00' + u16(off)          # DRAM_BASE + off

def wreg(dp, reg, v): return bytes([0]) + bytes([(0x80 if dp else 0) | reg // 4]) + val(v)
def rreg(dp, reg): return bytes([2, (0x80 if dp else 0) | reg // 4])
def setup(b=0, toff=0x100, tlen=0x2000): return bytes([6, b]) + u16(toff) + u16(tlen)
def v0desc(slot, opidx, flags, shape, tens, conv=0, pool=0, tag=7):
    b = bytes([3, slot, opidx, flags]) + b''.join(val(x) for x in shape)
    for off, stride in tens:
        b += addr(off) + val(stride)
    return b + val(conv) + val(pool) + bytes([tag])
def doorbell(v): return bytes([7, v])
RUN = bytes([8])
def fault(off, ln, noresp): return bytes([9]) + addr(off) + u16(ln) + bytes([noresp])

matmul = v0desc(0, 1, 1, (4, 4, 16), [(0x100, 16), (0x200, 16), (0x300, 16)])
S = {
    'matmul-run': b'\x00' + setup() + matmul + doorbell(1) + RUN + rreg(False, 0x0c),
    'conv-run': b'\x00' + setup() +
        v0desc(0, 3, 1, (8 | 8 << 16, 2 | 2 << 16, 3), [(0x100, 16), (0x400, 16), (0x800, 64)],
               conv=1 | 1 << 4 | 1 << 8 | 1 << 12 | 1 << 16, pool=8 | 8 << 16) +
        doorbell(1) + RUN,
    'fallback-cpu-select': b'\x00' + setup(b=0x40) + v0desc(0, 8, 1, (0, 0, 0), [(0, 0)] * 3) +
        doorbell(1) + RUN + wreg(False, 0x10, 0x6) + wreg(False, 0x28, 1) + RUN,
    'bus-fault-then-flush': b'\x00' + setup() + matmul + fault(0x300, 0x40, 0) +
        doorbell(1) + RUN + wreg(False, 0x08, 0x3) + bytes([10]),
    'noresp-fault': b'\x00' + setup() + matmul + fault(0x0, 0x40, 1) + doorbell(1) + RUN,
    'window-violation': b'\x00' + setup(toff=0x100, tlen=0x100) + matmul + doorbell(1) + RUN,
    'no-gemmini': b'\x01' + setup() + matmul + doorbell(1) + RUN,
    'dp-scalar-dot4': b'\x00' + wreg(True, 0x08, 0x01020304) + wreg(True, 0x0c, 0x7f7f7f7f) +
        bytes([13, 4]) + rreg(True, 0x14) + bytes([13, 0x40]),
    'dp-desc-mode': b'\x00' + setup() + bytes([4, 0]) + u32(0) + b'\x01' + b'\x00' + u32(5) +
        b'\x00' + u32(6) + b'\x00' + u32(0) + wreg(True, 0x44, 1) + wreg(True, 0x30, 1) +
        wreg(True, 0x00, 1) + rreg(True, 0x4c),
    'drop-irq-hang': b'\x00' + setup(b=0x20) + bytes([12, 1]) + matmul + doorbell(1) +
        bytes([11, 1]) + RUN + bytes([11, 0]) + RUN + wreg(False, 0x10, 0x1f),
}
os.makedirs('corpus-fuzz-model-mmio', exist_ok=True)
for name, b in S.items():
    with open(os.path.join('corpus-fuzz-model-mmio', name), 'wb') as fh:
        fh.write(b)

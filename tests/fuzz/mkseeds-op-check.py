#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the hand-made seeds of fuzz-op-check (input format: see
# LLVMFuzzerTestOneInput in fuzz-op-check.c). Run from tests/fuzz/.
import struct, os

OPS = [0, 1, 2, 3, 4, 5, 6, 0x100, 0x101, 0x102, 0x103]
FIELDS = ['m', 'n', 'k', 'c_in', 'c_out', 'out_h', 'out_w', 'stride_h',
          'stride_w', 'pad_top', 'pad_left', 'dilation']

def val(v):
    return bytes([v]) if v < 64 else b'\xc0' + struct.pack('<I', v)

def off(v):
    return b'\x00' if v == 0 else b'\xc0' + struct.pack('<Q', v)

def reloc(cmd=0, field=0, handle=1, offset=0, pad=0):
    # command tail relocation: b bit 7 raw cmd, 6 raw pad, 5 cmd 1,
    # 4 raw field, 3 handle 2 (else 1), 2 handle 0, 1-0 field
    b = (0x80 if cmd > 1 else (cmd << 5)) | (0x40 if pad else 0)
    b |= 0x10 if field > 3 else field
    b |= 4 if handle == 0 else (8 if handle == 2 else 0)
    t = bytes([b])
    if cmd > 1:
        t += struct.pack('<I', cmd)
    if field > 3:
        t += struct.pack('<I', field)
    if pad:
        t += struct.pack('<I', pad)
    return t + off(offset)

def tail(muts=(), relocs=(), engine=None, raw=b''):
    # the command tail (P7): the op's command (raw bytes when the op has
    # none on the engine) with words xor-ed, then relocations; engine
    # forces the engine (bit 7) when given
    sel = (len(muts) & 3) << 1
    if engine is not None:
        sel |= 0x80 | engine
    t = bytes([sel]) + raw
    for word, mask in muts:
        t += bytes([word, 0x80]) + struct.pack('<I', mask)
    t += bytes([len(relocs)])
    for r in relocs:
        t += r
    return t

def seed(opcode, sizes=(4096, 4096, 4096), cfg=0, flags=0, tensors=(),
         cmd_tail=b'', **f):
    b = bytes([cfg])
    for s in sizes:
        b += struct.pack('<I', 0x40000000 | s)
    b += bytes([OPS.index(opcode)]) + bytes([flags])
    for name in FIELDS:
        b += val(f.get(name, 0))
    t = list(tensors) + [(0, 0, 0)] * (3 - len(tensors))
    for h, stride, o in t:
        b += bytes([h]) + val(stride) + off(o)
    return b + cmd_tail

S = {
    'matmul': seed(2, m=4, n=8, k=16, tensors=[(1, 16, 0), (2, 16, 0), (3, 32, 0)]),
    'matmul-relu-shared-buf': seed(2, flags=1, m=3, n=5, k=7,
                                   tensors=[(1, 16, 0), (1, 16, 256), (2, 32, 16)]),
    'conv3x3-pad': seed(3, m=8, n=8, c_in=4, c_out=4, k=3, out_h=8, out_w=8,
                        stride_h=1, stride_w=1, pad_top=1, pad_left=1, dilation=1,
                        tensors=[(1, 32, 0), (2, 16, 0), (3, 128, 0)]),
    'conv5x5-dil2-s2': seed(3, m=9, n=9, c_in=1, c_out=2, k=5, out_h=3, out_w=3,
                            stride_h=2, stride_w=2, pad_top=0, pad_left=0, dilation=2,
                            tensors=[(1, 16, 0), (2, 16, 0), (3, 32, 0)]),
    'relu': seed(4, m=5, n=17, tensors=[(1, 32, 16), (0, 0, 0), (2, 32, 0)]),
    'maxpool': seed(5, m=6, n=6, c_in=3, k=3, stride_h=2,
                    tensors=[(1, 32, 0), (0, 0, 0), (2, 16, 0)]),
    'fallback': seed(6),
    'nop-no-gemmini': seed(0, cfg=0x04),
    'matmul-no-gemmini': seed(2, cfg=0x04, m=1, n=1, k=1,
                              tensors=[(1, 16, 0), (2, 16, 0), (3, 16, 0)]),
    'dp-scalar': seed(0x100, m=3, k=4, tensors=[(1, 0, 0), (0, 0, 0), (2, 0, 8)]),
    'dp-gemm-s8': seed(0x101, m=3, n=3, k=7, tensors=[(1, 7, 1), (2, 3, 5), (3, 12, 4)]),
    'dp-gemm-s4-odd': seed(0x102, m=3, n=3, k=7, sizes=(11, 11, 36),
                           tensors=[(1, 7, 0), (2, 3, 0), (3, 12, 0)]),
    'dp-vrelu': seed(0x103, n=64, sizes=(64, 64, 64), tensors=[(1, 0, 0), (0, 0, 0), (2, 0, 0)]),
    'matmul-end-of-buffer': seed(2, sizes=(64, 244, 64), m=4, n=4, k=16,
                                 tensors=[(1, 16, 0), (2, 16, 0), (3, 16, 0)]),
    # command tails: the canonical command and its relocations, one of
    # them refused, and commands with a kernel-owned word or reserved bit
    'tail-matmul-relocs': seed(2, m=4, n=8, k=16,
                               tensors=[(1, 16, 0), (2, 16, 0), (3, 32, 0)],
                               cmd_tail=tail(relocs=[reloc(0, 0, 1, 32), reloc(0, 1, 2),
                                                     reloc(0, 2, 1, 64), reloc(0, 2, 2)])),
    'tail-matmul-address-word': seed(2, m=4, n=8, k=16,
                                     tensors=[(1, 16, 0), (2, 16, 0), (3, 32, 0)],
                                     cmd_tail=tail(muts=[(4, 0x1000)])),
    'tail-matmul-tag-irq': seed(2, m=1, n=1, k=1,
                                tensors=[(1, 16, 0), (2, 16, 0), (3, 16, 0)],
                                cmd_tail=tail(muts=[(15, 1), (0, 1 << 16)])),
    'tail-conv-params-reserved': seed(3, m=8, n=8, c_in=4, c_out=4, k=3, out_h=8, out_w=8,
                                      stride_h=1, stride_w=1, pad_top=1, pad_left=1,
                                      dilation=1,
                                      tensors=[(1, 32, 0), (2, 16, 0), (3, 128, 0)],
                                      cmd_tail=tail(muts=[(13, 1 << 20)])),
    'tail-relu-unused-reloc': seed(4, m=5, n=17, tensors=[(1, 32, 16), (0, 0, 0), (2, 32, 0)],
                                   cmd_tail=tail(relocs=[reloc(0, 1, 1), reloc(0, 0, 0),
                                                         reloc(1, 2, 1), reloc(0, 7, 1),
                                                         reloc(0, 2, 1, pad=1)])),
    'tail-dp-gemm-cfg': seed(0x101, m=3, n=3, k=7, tensors=[(1, 7, 1), (2, 3, 5), (3, 12, 4)],
                             cmd_tail=tail(muts=[(2, 1 << 4)], relocs=[reloc(0, 0, 1)])),
    'tail-dp-scalar-pad-param': seed(0x100, m=3, k=4, tensors=[(1, 0, 0), (0, 0, 0), (2, 0, 8)],
                                     cmd_tail=tail(muts=[(7, 1), (1, 1)])),
    'tail-raw-nop-other-engine': seed(0, cmd_tail=tail(engine=1, raw=bytes(32),
                                                       relocs=[reloc(), reloc(0, 2, 1, 8)])),
}
os.makedirs('corpus-fuzz-op-check', exist_ok=True)
for name, b in S.items():
    with open(os.path.join('corpus-fuzz-op-check', name), 'wb') as fh:
        fh.write(b)

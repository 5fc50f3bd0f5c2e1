#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the hand-made seeds of fuzz-api-ops (input format: see
# LLVMFuzzerTestOneInput and the f_* decoders in fuzz-api-ops.c). Run from
# tests/fuzz/. One seed per entry point, context and engine override, with
# every field a small value (a byte below 0xd0 is "small" for sizes, a
# table index for scales, a zero point for zero points), so each seed
# reaches a successful call; the fuzzer mutates from there.
import os

ENTRIES = ['matmul_s8', 'matmul_lowp', 'matmul_fp8', 'matmul_f16',
           'matmul_gs_s4', 'batch_matmul', 'fc', 'conv', 'pool',
           'elementwise', 'softmax', 'norms', 'attention_parts', 'attention',
           'kv', 'projections', 'blocks', 'misc']

# header byte: bit 0 context (0 sim device, 1 CPU only), bits 1-2 force
CTX = {'sim-auto': 0, 'cpu': 1, 'sim-wrapper': 2, 'sim-datapath': 4}

def seed(entry, hdr, fill):
    # 64 field bytes: enough for the largest decoder; the rest of the input
    # fills the buffers (a short input falls back to a pattern)
    return bytes([hdr, ENTRIES.index(entry)]) + bytes(fill) * 64

# Field by field (the decoder's order), for entries whose all-4 seed is
# rejected: zero point bytes are (selector 0, value 128 + zp).
Q = [2, 0, 128]          # scale 0.5, zero point 0
QO = [3, 0, 128]         # scale 1.0, zero point 0
ATT = [1, 2, 4, 4, 8, 1, 2, 0, 0, 5, 0, 3, 3]   # b, h, tq, tk, dim, causal,
                                                # window, exp2, requant, scales
FIELDS = {
    'conv2d': ('conv', [0, 0, 8, 8, 3, 4, 3, 3, 1, 1, 1, 1, 2, 1, 1, 0] + Q + QO +
               [0, 128, 0, 1, 0, 1]),
    'depthwise': ('conv', [1, 0, 6, 6, 4, 8, 3, 3, 2, 2, 1, 1, 1, 1, 2, 1] + Q + QO +
                  [0, 128, 0, 2, 0, 0]),
    'grouped-uint8': ('conv', [2, 1, 5, 5, 4, 8, 1, 1, 1, 1, 1, 1, 2, 2, 1, 0,
                               2, 0, 3, 3, 0, 7, 0, 131, 0, 0, 0, 1]),
    'maxpool': ('pool', [0, 0, 8, 8, 4, 2, 2, 2, 2, 1] + Q + [0]),
    'avgpool-same': ('pool', [1, 0, 7, 7, 3, 3, 3, 1, 1, 2] + Q + [1]),
    'attention-causal': ('attention', ATT),
    'attention-exact': ('attention', ATT[:5] + [0, 0, 1] + ATT[8:]),
    'attention-qk': ('attention_parts', [0, 1, 2, 4, 4, 8]),
    'attention-av': ('attention_parts', [1, 1, 2, 4, 4, 8]),
    'kv-append': ('kv', [0] + ATT + [8, 2]),
    'decode-attention': ('kv', [1] + ATT + [8, 2]),
    'add': ('elementwise', [4, 16, 0, 0] + Q + Q + QO + [0]),
    'fc': ('fc', [0, 16, 8] + Q + QO + [0, 128, 0, 0, 0, 1, 4]),
    'matmul-fp16': ('matmul_f16', [2, 4, 4, 4]),
    'matmul-bf16': ('matmul_f16', [3, 4, 4, 4]),
}

os.makedirs('corpus-fuzz-api-ops', exist_ok=True)
for name, (entry, fields) in FIELDS.items():
    for ctx, hdr in CTX.items():
        with open('corpus-fuzz-api-ops/%s-%s' % (name, ctx), 'wb') as f:
            f.write(bytes([hdr, ENTRIES.index(entry)] + fields))
for entry in ENTRIES:
    for ctx, hdr in CTX.items():
        for name, fill in (('4', [4]), ('mixed', [6, 3, 2, 8, 1, 5])):
            path = 'corpus-fuzz-api-ops/%s-%s-%s' % (entry, ctx, name)
            with open(path, 'wb') as f:
                f.write(seed(entry, hdr, fill))

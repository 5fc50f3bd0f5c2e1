#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the seeds of fuzz-llm-load: tiny random llama2.c checkpoints (shared
# and unshared classifier, GQA, hidden sizes that are not multiples of the
# int8 group) each paired with a tokenizer of its vocabulary, laid out as
# the harness reads them (4-byte checkpoint length, checkpoint, tokenizer).
# Each twice: the float32 path and the int8 path (the length word's top bit).
# Run from tests/fuzz/. Deterministic (fixed seeds).
import os
import random
import struct

OUT = 'corpus-fuzz-llm-load'


def checkpoint(rng, dim, hidden, layers, heads, kv_heads, vocab, seq, shared=True):
    hs = dim // heads
    kv = hs * kv_heads
    v = abs(vocab)
    n = (v * dim + layers * dim * 2 + layers * dim * dim * 2 + layers * kv * dim * 2 +
         layers * hidden * dim * 3 + dim + seq * hs + (0 if shared else v * dim))
    head = struct.pack('<7i', dim, hidden, layers, heads, kv_heads, vocab if shared else -v, seq)
    return head + struct.pack('<%df' % n, *[rng.uniform(-0.5, 0.5) for _ in range(n)])


def tokenizer(rng, vocab):
    pieces = ['<unk>', '\n<s>\n', '\n</s>\n']
    pieces += ['<0x%02X>' % b for b in range(256)][:max(0, vocab - 3)]
    letters = 'abcdehilnorst '
    while len(pieces) < vocab:
        pieces.append(''.join(rng.choice(letters) for _ in range(rng.randint(1, 4))))
    pieces = pieces[:vocab]
    out = struct.pack('<i', max(len(p.encode()) for p in pieces))
    for i, p in enumerate(pieces):
        b = p.encode()
        out += struct.pack('<fi', -float(i), len(b)) + b
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(32)
    shapes = [
        # dim, hidden, layers, heads, kv_heads, vocab, seq, shared
        (8, 12, 1, 2, 1, 16, 8, True),
        (8, 12, 1, 2, 2, 20, 8, False),
        (16, 20, 2, 4, 2, 24, 8, True),
        (4, 6, 1, 1, 1, 12, 4, True),
        (8, 10, 1, 4, 1, 264, 6, True),
    ]
    for i, (d, h, l, nh, kvh, v, s, sh) in enumerate(shapes):
        ck = checkpoint(rng, d, h, l, nh, kvh, v, s, sh)
        tk = tokenizer(rng, v)
        for int8 in (0, 1):
            blob = struct.pack('<I', len(ck) | (int8 << 31)) + ck + tk
            name = 'seed-%d-dim%d-h%d-v%d%s%s' % (i, d, h, v, '' if sh else '-unshared',
                                                  '-int8' if int8 else '-float')
            with open(os.path.join(OUT, name), 'wb') as f:
                f.write(blob)


if __name__ == '__main__':
    main()

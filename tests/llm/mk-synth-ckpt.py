#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes a llama2.c checkpoint of a given shape with random weights, for
# the benchmark (never committed): default stories15M's shape (dim 288,
# hidden 768, 6 layers, 6 heads, 6 kv heads, vocab 32000, seq_len 256).
# Weights uniform in [-0.05, 0.05] (RMSNorm gains around 1), deterministic.
# Usage: mk-synth-ckpt.py OUT [dim hidden layers heads kv_heads vocab seq]
import array
import random
import struct
import sys


def main():
    out = sys.argv[1]
    dim, hid, L, nh, kvh, voc, seq = [int(x) for x in sys.argv[2:9]] or [288, 768, 6, 6, 6, 32000, 256]
    hs = dim // nh
    kv = hs * kvh
    sizes = [('emb', voc * dim), ('rms_att', L * dim), ('wq', L * dim * dim), ('wk', L * kv * dim),
             ('wv', L * kv * dim), ('wo', L * dim * dim), ('rms_ffn', L * dim),
             ('w1', L * hid * dim), ('w2', L * dim * hid), ('w3', L * hid * dim),
             ('rms_final', dim), ('freq_cis', seq * hs)]
    rng = random.Random(15)
    with open(out, 'wb') as f:
        f.write(struct.pack('<7i', dim, hid, L, nh, kvh, voc, seq))
        for name, n in sizes:
            if name.startswith('rms'):
                a = array.array('f', [1.0]) * n
            else:
                # int8 noise scaled: fast enough in pure Python for 15M weights
                a = array.array('f', map((0.05 / 128).__mul__, array.array('b', rng.randbytes(n))))
            a.tofile(f)


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""TFLite files past each of the loader's limits (lib/tflite/tflite_reader.h),
written byte by byte here (a FlatBuffer of TensorFlow's schema.fbs field
numbers: Model 0 version, 1 operator_codes, 2 subgraphs, 4 buffers;
SubGraph 0 tensors, 1 inputs, 2 outputs, 3 operators; Operator 0
opcode_index, 1 inputs, 2 outputs; Tensor 0 shape, 1 type, 2 buffer).
Vectors of tables have every entry point at one shared table: the file
stays small however many entries it declares.

Usage: mklimits.py DIR   writes DIR/NAME.tflite for each NAME below and
DIR/expect.txt: "NAME<TAB>text the loader's error must contain".
"""
import os
import struct
import sys

TFL_MAX_TENSORS = 1 << 16
TFL_MAX_OPERATORS = 1 << 16
TFL_MAX_SUBGRAPHS = 1 << 10
TFL_MAX_BUFFERS = 1 << 17
TFL_MAX_OPCODES = 1 << 12


class Buf:
    """Objects appended in order; a reference is an uoffset to a later one."""

    def __init__(self):
        self.b = bytearray()

    def align(self, n=4):
        while len(self.b) % n:
            self.b.append(0)

    def here(self):
        return len(self.b)

    def u32(self, v):
        self.b += struct.pack('<I', v)

    def put_u32(self, pos, v):
        self.b[pos:pos + 4] = struct.pack('<I', v)


def table(buf, nfields, values):
    """A table of nfields 4-byte fields (values: index -> ('u32', v) or
    ('ref', None), None: absent); returns (table position, {index: field
    position}) so refs can be patched once their target is placed."""
    buf.align(4)
    vt = buf.here()
    present = [i for i in range(nfields) if values.get(i) is not None]
    vsize = 4 + 2 * nfields
    tsize = 4 + 4 * len(present)
    offs = {}
    pos = 4
    for i in present:
        offs[i] = pos
        pos += 4
    buf.b += struct.pack('<HH', vsize, tsize)
    for i in range(nfields):
        buf.b += struct.pack('<H', offs.get(i, 0))
    buf.align(4)
    t = buf.here()
    buf.b += struct.pack('<i', t - vt)
    fields = {}
    for i in present:
        kind, v = values[i]
        fields[i] = buf.here()
        buf.u32(v if kind == 'u32' else 0)
    return t, fields


def ref(buf, field_pos, target):
    buf.put_u32(field_pos, target - field_pos)


def vec_u32(buf, vals):
    buf.align(4)
    v = buf.here()
    buf.u32(len(vals))
    for x in vals:
        buf.u32(x)
    return v


def vec_shared(buf, n, make):
    """A vector of n table offsets all pointing at one table made by
    make(buf) after it; returns the vector's position."""
    buf.align(4)
    v = buf.here()
    buf.u32(n)
    first = buf.here()
    buf.b += bytes(4 * n)
    t = make(buf)
    for i in range(n):
        e = first + 4 * i
        buf.put_u32(e, t - e)
    return v


def model(nbuf=1, ncodes=1, nsub=1, ntens=2, nops=1, op_io=1):
    buf = Buf()
    buf.u32(0)
    buf.b += b'TFL3'
    root, rf = table(buf, 5, {0: ('u32', 3), 1: ('ref', 0), 2: ('ref', 0), 4: ('ref', 0)})
    buf.put_u32(0, root)

    def empty(b):
        t, _ = table(b, 1, {})
        return t

    def opcode(b):
        t, _ = table(b, 4, {3: ('u32', 0)})      # builtin ADD
        return t

    def tensor(b):
        t, f = table(b, 3, {0: ('ref', 0), 1: ('u32', 3)})   # uint8
        ref(b, f[0], vec_u32(b, [1]))
        return t

    def operator(b):
        t, f = table(b, 3, {0: ('u32', 0), 1: ('ref', 0), 2: ('ref', 0)})
        ref(b, f[1], vec_u32(b, [0] * op_io))
        ref(b, f[2], vec_u32(b, [1] * op_io))
        return t

    def subgraph(b):
        t, f = table(b, 4, {0: ('ref', 0), 1: ('ref', 0), 2: ('ref', 0), 3: ('ref', 0)})
        ref(b, f[0], vec_shared(b, ntens, tensor))
        ref(b, f[1], vec_u32(b, [0]))
        ref(b, f[2], vec_u32(b, [1]))
        ref(b, f[3], vec_shared(b, nops, operator))
        return t

    ref(buf, rf[4], vec_shared(buf, nbuf, empty))
    ref(buf, rf[1], vec_shared(buf, ncodes, opcode))
    ref(buf, rf[2], vec_shared(buf, nsub, subgraph))
    return bytes(buf.b)


CASES = {
    # name: (arguments, text the error must contain)
    'buffers': (dict(nbuf=TFL_MAX_BUFFERS + 1),
                'model.buffers: %d entries, more than the limit TFL_MAX_BUFFERS = %d'
                % (TFL_MAX_BUFFERS + 1, TFL_MAX_BUFFERS)),
    'opcodes': (dict(ncodes=TFL_MAX_OPCODES + 1),
                'model.operator_codes: %d entries, more than the limit TFL_MAX_OPCODES = %d'
                % (TFL_MAX_OPCODES + 1, TFL_MAX_OPCODES)),
    'subgraphs': (dict(nsub=TFL_MAX_SUBGRAPHS + 1),
                  'model.subgraphs: %d entries, more than the limit TFL_MAX_SUBGRAPHS = %d'
                  % (TFL_MAX_SUBGRAPHS + 1, TFL_MAX_SUBGRAPHS)),
    'tensors': (dict(ntens=TFL_MAX_TENSORS + 1),
                'subgraph 0 tensors: %d entries, more than the limit TFL_MAX_TENSORS = %d'
                % (TFL_MAX_TENSORS + 1, TFL_MAX_TENSORS)),
    'operators': (dict(nops=TFL_MAX_OPERATORS + 1),
                  'subgraph 0 operators: %d entries, more than the limit TFL_MAX_OPERATORS = %d'
                  % (TFL_MAX_OPERATORS + 1, TFL_MAX_OPERATORS)),
    # within every count, but 60000 operators sharing one table of 64
    # inputs and 64 outputs: ~240 KB of file, ~30 MiB of lists alone
    'memory': (dict(nops=60000, op_io=64),
               'the parsed model would take more than'),
    # 4000 operators sharing one table: 16 KB of file, parsed within the
    # budget, but the loader's layers (kilobytes each) would not be
    'layers': (dict(nops=4000),
               '4000 operators and 2 tensors would take'),
}


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'expect.txt'), 'w') as ex:
        for name, (kw, want) in CASES.items():
            with open(os.path.join(d, name + '.tflite'), 'wb') as f:
                f.write(model(**kw))
            ex.write('%s\t%s\n' % (name, want))
        # the same small model within every limit: loads past the counts
        with open(os.path.join(d, 'within.tflite'), 'wb') as f:
            f.write(model(nbuf=4, ncodes=4, nsub=2, ntens=8, nops=4, op_io=2))


if __name__ == '__main__':
    main()

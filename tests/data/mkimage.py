#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Make grace_hopper_128.bmp (the build makes $(O)/tests/data/grace_hopper_128.bmp,
tests/data/data.mk; never committed): the shared 24-bit grace_hopper.bmp
area-averaged (integer box filter) to 128x128, the input size of
mobilenet_v1_0.25_128_quant.tflite, so the test image is 48 KiB instead of
900 KiB. Usage: mkimage.py SRC.bmp DST.bmp [SIZE]"""
import struct
import sys


def read_bmp(path):
    d = open(path, 'rb').read()
    if d[:2] != b'BM':
        sys.exit('%s: not a BMP' % path)
    off = struct.unpack_from('<I', d, 10)[0]
    w, h, planes, bpp, comp = struct.unpack_from('<iiHHI', d, 18)
    if bpp != 24 or comp != 0:
        sys.exit('%s: %d bpp, compression %d: need 24-bit uncompressed' % (path, bpp, comp))
    stride = (w * 3 + 3) & ~3
    rows = []
    for r in range(abs(h)):
        src = r if h < 0 else abs(h) - 1 - r      # top-down order
        p = off + src * stride
        rows.append(d[p:p + w * 3])
    return w, abs(h), rows


def box(w, h, rows, size):
    out = []
    for oy in range(size):
        y0, y1 = oy * h // size, max(oy * h // size + 1, (oy + 1) * h // size)
        line = bytearray()
        for ox in range(size):
            x0, x1 = ox * w // size, max(ox * w // size + 1, (ox + 1) * w // size)
            n = (y1 - y0) * (x1 - x0)
            for c in range(3):
                s = sum(rows[y][x * 3 + c] for y in range(y0, y1) for x in range(x0, x1))
                line.append((s + n // 2) // n)
        out.append(bytes(line))
    return out


def write_bmp(path, size, rows):
    stride = (size * 3 + 3) & ~3
    pix = b''.join(r + b'\0' * (stride - len(r)) for r in reversed(rows))
    hdr = struct.pack('<2sIHHI', b'BM', 54 + len(pix), 0, 0, 54)
    info = struct.pack('<IiiHHIIiiII', 40, size, size, 1, 24, 0, len(pix), 2835, 2835, 0, 0)
    open(path, 'wb').write(hdr + info + pix)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    size = int(sys.argv[3]) if len(sys.argv) == 4 else 128
    w, h, rows = read_bmp(sys.argv[1])
    write_bmp(sys.argv[2], size, box(w, h, rows, size))


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bmp2png.py SRC.bmp DST.png: a 24-bit uncompressed BMP as an 8-bit RGB
PNG (zlib, filter 0 on every row): the same pixels, so e1npu-classify
gives the same output tensor for both."""
import struct
import sys
import zlib


def main():
    src, dst = sys.argv[1], sys.argv[2]
    d = open(src, 'rb').read()
    if d[:2] != b'BM':
        sys.exit('%s: not a BMP' % src)
    off = struct.unpack_from('<I', d, 10)[0]
    w, h, _planes, bpp, comp = struct.unpack_from('<iiHHI', d, 18)
    if bpp != 24 or comp != 0:
        sys.exit('%s: %d bpp, compression %d: need 24-bit uncompressed' % (src, bpp, comp))
    stride = (w * 3 + 3) & ~3
    rows = []
    for y in range(abs(h)):
        # bottom-up unless the height is negative
        r = y if h < 0 else abs(h) - 1 - y
        row = d[off + r * stride: off + r * stride + w * 3]
        rgb = bytearray(w * 3)
        rgb[0::3], rgb[1::3], rgb[2::3] = row[2::3], row[1::3], row[0::3]
        rows.append(b'\0' + bytes(rgb))

    def chunk(tag, data):
        return (struct.pack('>I', len(data)) + tag + data +
                struct.pack('>I', zlib.crc32(tag + data) & 0xffffffff))
    png = (b'\x89PNG\r\n\x1a\n' +
           chunk(b'IHDR', struct.pack('>IIBBBBB', w, abs(h), 8, 2, 0, 0, 0)) +
           chunk(b'IDAT', zlib.compress(b''.join(rows), 9)) + chunk(b'IEND', b''))
    open(dst, 'wb').write(png)


if __name__ == '__main__':
    main()

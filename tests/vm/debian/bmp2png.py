#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bmp2png.py SRC.bmp DST.png: a 24-bit uncompressed BMP as an 8-bit RGB
PNG (zlib, filter 0 on every row): the same pixels, so e1npu-classify
gives the same output tensor for both. The BMP is read by
tests/data/mkimage.py's reader."""
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'data'))
from mkimage import read_bmp  # noqa: E402


def chunk(tag, data):
    return (struct.pack('>I', len(data)) + tag + data +
            struct.pack('>I', zlib.crc32(tag + data) & 0xffffffff))


def main():
    w, h, rows = read_bmp(sys.argv[1])      # top-down rows of BGR
    raw = b''
    for row in rows:
        rgb = bytearray(w * 3)
        rgb[0::3], rgb[1::3], rgb[2::3] = row[2::3], row[1::3], row[0::3]
        raw += b'\0' + bytes(rgb)
    png = (b'\x89PNG\r\n\x1a\n' +
           chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) +
           chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))
    open(sys.argv[2], 'wb').write(png)


if __name__ == '__main__':
    main()

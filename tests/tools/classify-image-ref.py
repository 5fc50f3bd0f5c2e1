#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fixtures for tests/tools/test-classify-image.c, written independently of
tools/e1npu-classify (standard library only):

- resize references: TensorFlow's ResizeBilinear(half_pixel_centers=True)
  in float32, each +, -, * done in double and rounded to float32 through
  struct (exact: a double result of one float32 operation rounds to the
  correctly rounded float32), then the input cast (uint8: truncation;
  int8: float32(v - 128) truncated toward zero);
- PNG files written with zlib (every filter type, gray/palette/16-bit/
  alpha/interlaced) and the RGB pixels libpng must give, plus a file with
  a bad CRC and a truncated one.

Usage: classify-image-ref.py OUTDIR  (writes OUTDIR/index.txt last)
"""
import math
import os
import struct
import sys
import zlib


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def pixels(w, h, seed):
    """Deterministic pseudo-random RGB bytes (an LCG)."""
    out = bytearray()
    s = seed
    for _ in range(w * h * 3):
        s = (s * 1103515245 + 12345) & 0x7FFFFFFF
        out.append((s >> 16) & 0xFF)
    return bytes(out)


def weights(out_n, in_n):
    scale = f32(f32(in_n) / f32(out_n))
    res = []
    for i in range(out_n):
        src = f32(f32(f32(f32(i) + 0.5) * scale) - 0.5)
        fl, ce = math.floor(src), math.ceil(src)
        res.append((max(fl, 0), min(ce, in_n - 1), f32(src - fl)))
    return res


def resize_f32(rgb, iw, ih, ow, oh):
    xs, ys = weights(ow, iw), weights(oh, ih)
    out = []
    for y in range(oh):
        y0, y1, ty = ys[y]
        for x in range(ow):
            x0, x1, tx = xs[x]
            for c in range(3):
                tl = rgb[(y0 * iw + x0) * 3 + c]
                tr = rgb[(y0 * iw + x1) * 3 + c]
                bl = rgb[(y1 * iw + x0) * 3 + c]
                br = rgb[(y1 * iw + x1) * 3 + c]
                top = f32(tl + f32(f32(tr - tl) * tx))
                bot = f32(bl + f32(f32(br - bl) * tx))
                out.append(f32(top + f32(f32(bot - top) * ty)))
    return out


def resize_f64(rgb, iw, ih, ow, oh):
    """The same in double (what e1npu-classify did before): for the count of
    bytes where float32 matters."""
    out = []
    for y in range(oh):
        sy = (y + 0.5) * ih / oh - 0.5
        y0, y1 = max(math.floor(sy), 0), min(math.ceil(sy), ih - 1)
        ty = sy - math.floor(sy)
        for x in range(ow):
            sx = (x + 0.5) * iw / ow - 0.5
            x0, x1 = max(math.floor(sx), 0), min(math.ceil(sx), iw - 1)
            tx = sx - math.floor(sx)
            for c in range(3):
                p = lambda yy, xx: rgb[(yy * iw + xx) * 3 + c]
                top = p(y0, x0) + (p(y0, x1) - p(y0, x0)) * tx
                bot = p(y1, x0) + (p(y1, x1) - p(y1, x0)) * tx
                out.append(top + (bot - top) * ty)
    return out


def to_u8(v):
    return bytes(min(max(int(x), 0), 255) for x in v)


def to_s8(v):
    return bytes(min(max(int(f32(x - 128.0)), -128), 127) & 0xFF for x in v)


# ---- PNG writer ----

def chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_rows(rows, bpp, first_filter):
    """Each row with filter type (first_filter + row index) % 5."""
    out = bytearray()
    prev = bytes(len(rows[0])) if rows else b""
    for i, row in enumerate(rows):
        ft = (first_filter + i) % 5
        out.append(ft)
        for j, v in enumerate(row):
            a = row[j - bpp] if j >= bpp else 0
            b = prev[j]
            c = prev[j - bpp] if j >= bpp else 0
            pred = (0, a, b, (a + b) // 2, paeth(a, b, c))[ft]
            out.append((v - pred) & 0xFF)
        prev = row
    return bytes(out)


def pack_row(samples, depth):
    """Samples of one row at bit depth 1, 2, 4, 8 or 16, big-endian."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, n = bytearray(), 0, 0
    for s in samples:
        acc = (acc << depth) | s
        n += depth
        if n == 8:
            out.append(acc)
            acc, n = 0, 0
    if n:
        out.append(acc << (8 - n))
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
         (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def png(w, h, ctype, depth, samples, plte=None, trns=None, interlace=0):
    """samples[y][x] is a tuple of channel values."""
    chans = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    bpp = max(1, chans * depth // 8)
    data = b""
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    for k, (x0, y0, dx, dy) in enumerate(passes):
        rows = []
        for y in range(y0, h, dy):
            flat = [v for x in range(x0, w, dx) for v in samples[y][x]]
            if flat:
                rows.append(pack_row(flat, depth))
        if rows:
            data += filter_rows(rows, bpp, k)
    out = b"\x89PNG\r\n\x1a\n"
    out += chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace))
    if plte:
        out += chunk(b"PLTE", b"".join(bytes(p) for p in plte))
    if trns:
        out += chunk(b"tRNS", trns)
    z = zlib.compress(data, 9)
    out += chunk(b"IDAT", z[: len(z) // 2]) + chunk(b"IDAT", z[len(z) // 2:])
    out += chunk(b"IEND", b"")
    return out


def png_cases():
    w, h = 13, 7
    rnd = pixels(w, h, 7)
    rgb = [[tuple(rnd[(y * w + x) * 3: (y * w + x) * 3 + 3]) for x in range(w)] for y in range(h)]
    cases = {}
    cases["rgb8"] = (png(w, h, 2, 8, rgb), rgb)
    cases["rgb8-adam7"] = (png(w, h, 2, 8, rgb, interlace=1), rgb)
    gray = [[(rgb[y][x][0],) for x in range(w)] for y in range(h)]
    cases["gray8"] = (png(w, h, 0, 8, gray), [[(g[0],) * 3 for g in r] for r in gray])
    g1 = [[((x + y) & 1,) for x in range(w)] for y in range(h)]
    cases["gray1"] = (png(w, h, 0, 1, g1), [[(255 * v[0],) * 3 for v in r] for r in g1])
    pal = [(i * 17, 255 - i * 17, (i * 53) & 255) for i in range(16)]
    idx = [[((x * 3 + y * 5) % 16,) for x in range(w)] for y in range(h)]
    cases["pal4"] = (png(w, h, 3, 4, idx, plte=pal, trns=bytes([0, 128])),
                     [[pal[i[0]] for i in r] for r in idx])
    rgba16 = [[tuple(v * 257 + (x * 7 + y) % 256 for v in rgb[y][x]) + (40000,)
               for x in range(w)] for y in range(h)]
    cases["rgba16"] = (png(w, h, 6, 16, rgba16),
                       [[tuple(v >> 8 for v in p[:3]) for p in r] for r in rgba16])
    ga = [[(rgb[y][x][1], rgb[y][x][2]) for x in range(w)] for y in range(h)]
    cases["graya8"] = (png(w, h, 4, 8, ga), [[(p[0],) * 3 for p in r] for r in ga])
    return w, h, cases


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    index = []
    float_matters = 0
    for iw, ih, ow, oh in ((300, 225, 224, 224), (37, 29, 64, 48), (5, 3, 7, 11), (2, 1, 3, 1)):
        name = "resize-%dx%d-%dx%d" % (iw, ih, ow, oh)
        rgb = pixels(iw, ih, iw * 1000 + ih)
        v = resize_f32(rgb, iw, ih, ow, oh)
        u8, s8 = to_u8(v), to_s8(v)
        d64 = to_u8(resize_f64(rgb, iw, ih, ow, oh))
        diff = sum(1 for a, b in zip(u8, d64) if a != b)
        float_matters += diff
        print("%s: %d of %d bytes differ between float32 and double" % (name, diff, len(u8)))
        for ext, data in ((".in", rgb), (".u8", u8), (".s8", s8)):
            with open(os.path.join(outdir, name + ext), "wb") as f:
                f.write(data)
        index.append("resize %d %d %d %d %s" % (iw, ih, ow, oh, name))
    # The fixtures must tell float32 from double, or they test nothing.
    if float_matters == 0:
        sys.exit("classify-image-ref: no byte depends on float32 vs double")
    w, h, cases = png_cases()
    for name, (data, want) in cases.items():
        with open(os.path.join(outdir, name + ".png"), "wb") as f:
            f.write(data)
        with open(os.path.join(outdir, name + ".rgb"), "wb") as f:
            f.write(bytes(v for r in want for p in r for v in p))
        index.append("png %d %d %s" % (w, h, name))
    good = cases["rgb8"][0]
    bad = bytearray(good)
    bad[29] ^= 0xFF        # last byte of IHDR's CRC (8 + 4 + 4 + 13)
    with open(os.path.join(outdir, "bad-crc.png"), "wb") as f:
        f.write(bytes(bad))
    with open(os.path.join(outdir, "trunc.png"), "wb") as f:
        f.write(good[:60])
    with open(os.path.join(outdir, "index.txt"), "w") as f:
        f.write("\n".join(index) + "\n")


main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Dependency closure of out-of-tree modules for the guest initramfs.

usage: moddeps.py MODROOT KVER OUTDIR MODULE.ko...

Reads `modinfo -F depends` of each given module, resolves the names
against MODROOT/lib/modules/KVER/modules.dep recursively, copies every
dependency (decompressing .ko.xz/.ko.zst/.ko.gz; busybox insmod cannot)
and the given modules into OUTDIR, and writes OUTDIR/deps.order (the
kernel's modules, dependencies first) and OUTDIR/modules.order (the given
modules, also dependencies first). Exits non-zero on an unresolvable
dependency.
"""
import lzma
import gzip
import os
import shutil
import subprocess
import sys


def norm(name):
    base = os.path.basename(name)
    for ext in (".xz", ".zst", ".gz"):
        if base.endswith(ext):
            base = base[: -len(ext)]
    if base.endswith(".ko"):
        base = base[:-3]
    return base.replace("-", "_")


def modinfo_depends(path):
    out = subprocess.run(["modinfo", "-F", "depends", path], check=True,
                         capture_output=True, text=True).stdout.strip()
    return [norm(d) for d in out.split(",") if d.strip()]


def copy_module(src, dst):
    if src.endswith(".xz"):
        with lzma.open(src) as f, open(dst, "wb") as o:
            shutil.copyfileobj(f, o)
    elif src.endswith(".gz"):
        with gzip.open(src) as f, open(dst, "wb") as o:
            shutil.copyfileobj(f, o)
    elif src.endswith(".zst"):
        with open(dst, "wb") as o:
            subprocess.run(["zstd", "-q", "-d", "-c", src], stdout=o, check=True)
    else:
        shutil.copyfile(src, dst)


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    root, kver, outdir = sys.argv[1:4]
    ours = sys.argv[4:]
    moddir = os.path.join(root, "lib", "modules", kver)
    paths, deps = {}, {}
    with open(os.path.join(moddir, "modules.dep")) as f:
        for line in f:
            mod, _, rest = line.partition(":")
            n = norm(mod)
            paths[n] = os.path.join(moddir, mod)
            deps[n] = [norm(d) for d in rest.split()]
    builtin = set()
    try:
        with open(os.path.join(moddir, "modules.builtin")) as f:
            builtin = {norm(l.strip()) for l in f if l.strip()}
    except FileNotFoundError:
        pass

    our_names = {norm(p): p for p in ours}
    for n, p in our_names.items():
        deps[n] = modinfo_depends(p)

    kernel_order, our_order, seen = [], [], set()

    def visit(n, chain):
        if n in seen:
            return
        if n in chain:
            raise SystemExit("moddeps: dependency cycle: " + " -> ".join(chain + [n]))
        if n not in our_names and n not in paths:
            if n in builtin:
                seen.add(n)
                return
            raise SystemExit("moddeps: module %r (needed by %s) not found in %s"
                             % (n, chain[-1] if chain else "?", moddir))
        for d in deps.get(n, []):
            visit(d, chain + [n])
        seen.add(n)
        (our_order if n in our_names else kernel_order).append(n)

    for n in our_names:
        visit(n, [])

    os.makedirs(outdir, exist_ok=True)
    for n in kernel_order:
        copy_module(paths[n], os.path.join(outdir, n + ".ko"))
    for n in our_order:
        shutil.copyfile(our_names[n], os.path.join(outdir, n + ".ko"))
    with open(os.path.join(outdir, "deps.order"), "w") as f:
        f.write("".join(n + "\n" for n in kernel_order))
    with open(os.path.join(outdir, "modules.order"), "w") as f:
        f.write("".join(n + "\n" for n in our_order))
    print("kernel deps: " + (" ".join(kernel_order) or "(none)"))
    print("project modules: " + " ".join(our_order))
    return 0


if __name__ == "__main__":
    sys.exit(main())

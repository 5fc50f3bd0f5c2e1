#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every external command the build and test scripts call is installed by
a dependency list.

Scans the project's shell scripts (*.sh, and files with an sh/bash
shebang), the make fragments' recipes and $(shell ...) calls, and the
Python scripts' subprocess calls for the commands they run; maps each to
the Debian package that provides it (PROVIDER below: written from `dpkg -S`
on Debian 12 once, never asked of this machine); and fails, naming the
script and the command, when that package is in no list of
tools/devel/install-deps.sh nor in what a minbase Debian 12 (debootstrap
--variant=minbase) has. A command missing from PROVIDER is a failure too
(add it with its package). Packages a tool needs without the scripts
naming it (the kernel's bindeb-pkg runs debhelper's dh_listpackages) are
INDIRECT: each must be in a list as well.

Scripts that run inside the QEMU guests or the Debian board (busybox or
the board's own packages: t-*.sh, tests/vm/guest/, tests/vm/debian/,
headers naming /tests/ or /payload/) are not the build machine's and are
skipped.

Usage: check-commands.py [--root DIR] [--deps FILE] [FILE...]
  FILE...  scan these instead of the tree's scripts (the self-test)
Prints each problem, then "N passed, M failed" (one result per script).
"""
import fnmatch
import os
import re
import sys

# What debootstrap --variant=minbase installs for bookworm (Priority:
# required and its dependencies): always there.
MINBASE = set("""
base-files base-passwd bash bsdutils coreutils dash debconf debian-archive-keyring
debianutils diffutils dpkg findutils gcc-12-base grep gzip hostname init-system-helpers
libc-bin login mawk mount ncurses-base ncurses-bin passwd perl-base sed sysvinit-utils
tar tzdata usrmerge util-linux apt adduser libpam-runtime
""".split())

# command -> Debian 12 package (from dpkg -S /usr/bin/CMD etc. on bookworm)
PROVIDER = {
    # minbase
    "awk": "mawk", "basename": "coreutils", "bash": "bash", "cat": "coreutils",
    "chmod": "coreutils", "chown": "coreutils", "cksum": "coreutils", "cmp": "diffutils",
    "comm": "coreutils", "cp": "coreutils", "cut": "coreutils", "date": "coreutils",
    "dd": "coreutils", "df": "coreutils", "diff": "diffutils", "dirname": "coreutils",
    "du": "coreutils", "env": "coreutils", "expr": "coreutils", "false": "coreutils",
    "find": "findutils", "fold": "coreutils", "grep": "grep", "egrep": "grep",
    "gzip": "gzip", "gunzip": "gzip", "zcat": "gzip", "head": "coreutils",
    "id": "coreutils", "install": "coreutils", "ln": "coreutils", "ls": "coreutils",
    "md5sum": "coreutils", "mkdir": "coreutils", "mkfifo": "coreutils",
    "mknod": "coreutils", "mktemp": "coreutils", "mv": "coreutils", "nice": "coreutils",
    "nproc": "coreutils", "od": "coreutils", "paste": "coreutils", "printf": "coreutils",
    "readlink": "coreutils", "realpath": "coreutils", "rm": "coreutils",
    "rmdir": "coreutils", "sed": "sed", "seq": "coreutils", "sh": "dash",
    "sha256sum": "coreutils", "sha1sum": "coreutils", "shuf": "coreutils",
    "sleep": "coreutils", "sort": "coreutils", "split": "coreutils", "stat": "coreutils",
    "stdbuf": "coreutils", "sync": "coreutils", "tail": "coreutils", "tar": "tar",
    "tee": "coreutils", "timeout": "coreutils", "touch": "coreutils", "tr": "coreutils",
    "true": "coreutils", "truncate": "coreutils", "tsort": "coreutils", "uname": "coreutils",
    "uniq": "coreutils", "wc": "coreutils", "whoami": "coreutils", "xargs": "findutils",
    "yes": "coreutils", "base64": "coreutils", "numfmt": "coreutils", "tac": "coreutils",
    "nohup": "coreutils", "chroot": "coreutils", "sum": "coreutils", "csplit": "coreutils",
    "which": "debianutils", "run-parts": "debianutils", "tempfile": "debianutils",
    "flock": "util-linux", "setsid": "util-linux", "setpriv": "util-linux",
    "getopt": "util-linux", "unshare": "util-linux", "nsenter": "util-linux",
    "runuser": "util-linux", "script": "bsdutils", "logger": "bsdutils",
    "mount": "mount", "umount": "mount", "losetup": "mount", "mountpoint": "util-linux",
    "perl": "perl-base", "dpkg": "dpkg", "dpkg-query": "dpkg", "dpkg-deb": "dpkg",
    "dpkg-divert": "dpkg", "update-alternatives": "dpkg", "start-stop-daemon": "dpkg",
    "apt-get": "apt", "apt-cache": "apt", "apt-config": "apt", "apt": "apt",
    "apt-mark": "apt", "hostname": "hostname", "passwd": "passwd", "useradd": "passwd",
    "tic": "ncurses-bin", "tput": "ncurses-bin", "kill": "procps",
    # build
    "cc": "gcc", "gcc": "gcc", "make": "make", "pkg-config": "pkg-config",
    "python3": "python3", "ar": "binutils", "nm": "binutils", "objdump": "binutils",
    "readelf": "binutils", "strip": "binutils", "objcopy": "binutils", "ld": "binutils",
    "as": "binutils", "size": "binutils", "c++filt": "binutils", "addr2line": "binutils",
    "abidw": "abigail-tools", "abidiff": "abigail-tools", "cpp": "cpp",
    # fuzz
    "clang": "clang", "clang-14": "clang-14", "llvm-symbolizer": "llvm",
    # vm, debian board, kernel
    "xz": "xz-utils", "unxz": "xz-utils", "zstd": "zstd", "unzstd": "zstd",
    "cpio": "cpio", "modinfo": "kmod", "depmod": "kmod", "insmod": "kmod",
    "modprobe": "kmod", "bc": "bc", "bison": "bison", "flex": "flex",
    "sparse": "sparse", "rsync": "rsync", "file": "file", "patch": "patch",
    "dpkg-source": "dpkg-dev", "dpkg-architecture": "dpkg-dev",
    "dpkg-buildflags": "dpkg-dev", "dpkg-shlibdeps": "dpkg-dev",
    "dpkg-gencontrol": "dpkg-dev", "dpkg-buildpackage": "dpkg-dev",
    "dpkg-scanpackages": "dpkg-dev", "dpkg-checkbuilddeps": "dpkg-dev",
    "meson": "meson", "ninja": "ninja-build", "cmake": "cmake",
    "debootstrap": "debootstrap", "update-binfmts": "binfmt-support",
    "qemu-riscv64-static": "qemu-user-static", "mke2fs": "e2fsprogs",
    "e2fsck": "e2fsprogs", "debugfs": "e2fsprogs", "fakeroot": "fakeroot",
    "cjpeg": "libjpeg-turbo-progs", "djpeg": "libjpeg-turbo-progs",
    "riscv64-linux-gnu-gcc": "gcc-riscv64-linux-gnu",
    "riscv64-linux-gnu-objdump": "binutils-riscv64-linux-gnu",
    "riscv64-linux-gnu-readelf": "binutils-riscv64-linux-gnu",
    "riscv64-linux-gnu-strip": "binutils-riscv64-linux-gnu",
    "riscv64-linux-gnu-nm": "binutils-riscv64-linux-gnu",
    "riscv64-linux-gnu-ar": "binutils-riscv64-linux-gnu",
    "dh_listpackages": "debhelper",
    "lintian": "lintian", "dkms": "dkms",
    "dt-doc-validate": "dt-schema", "dt-mk-schema": "dt-schema",
    "dt-validate": "dt-schema", "dtc": "device-tree-compiler",
    "fdtdump": "device-tree-compiler", "fdtget": "device-tree-compiler",
    "yamllint": "yamllint", "git": "git", "dt-extract-example": "dt-schema",
    # the project's own or the packages' (not installed by apt: built here)
    "npm": "npm", "node": "nodejs", "curl": "curl", "wget": "wget",
    "shellcheck": "shellcheck", "valgrind": "valgrind", "strace": "strace",
    "gdb": "gdb", "sudo": "sudo", "ip": "iproute2", "ps": "procps",
    "pgrep": "procps", "pkill": "procps", "free": "procps", "ssh": "openssh-client",
    "jq": "jq", "unzip": "unzip", "zip": "zip", "bzip2": "bzip2", "lz4": "lz4",
    "openssl": "openssl", "gpg": "gpg", "gpgv": "gpgv", "sqv": "sqv",
    "qemu-system-riscv64": "BUILT", "lsof": "lsof", "time": "time",
}

# Packages tools need without any script naming the command: each must be
# in a list of install-deps.sh (or in minbase).
INDIRECT = {
    # the kernel's `make bindeb-pkg` (tests/vm/riscv64-kernel-debs.sh):
    # its scripts/package/debian/rules calls dh_listpackages
    "debhelper": "the kernel's bindeb-pkg (scripts/package/debian/rules: dh_listpackages)",
    # the fuzzers' libFuzzer runtime (clang -fsanitize=fuzzer)
    "libclang-rt-14-dev": "clang -fsanitize=fuzzer (tests/fuzz/)",
    # debootstrap of the Debian board's root: the archive's keys
    "debian-archive-keyring": "debootstrap (tests/vm/debian-rootfs.sh)",
    # qemu-user-static's binfmt registration (update-binfmts)
    "binfmt-support": "qemu-user-static in the chroot (tests/vm/debian-rootfs.sh)",
}

# Commands a script installs itself before calling them (not in a list:
# only those scripts' paths need them).
SELF_INSTALLED = {
    # apt-get install npm when missing
    "npm": ("tools/devel/fetch-tflite.sh", "tools/devel/fetch-onnx-npm.sh"),
}

# Shell words that are not commands: keywords, builtins.
BUILTINS = set("""
if then else elif fi case esac for while until do done in function select time
break continue return exit export readonly local declare typeset unset set shift
source . : eval exec trap wait cd pwd echo read test [ [[ ]] ] ulimit umask command
type hash getopts let alias unalias printf true false kill shopt builtin jobs fg bg
disown pushd popd dirs caller compgen complete enable help history logout mapfile
readarray suspend times { } ! -- coproc
""".split())

# Commands defined by the project itself (built, or scripts of the tree)
# or only named inside text run elsewhere: skipped.
PROJECT = set("""
e1npu-hlo e1npu-tflite e1npu-classify npu-smoke qemu-system-riscv64
""".split())

GUEST_GLOBS = ["*/t-*.sh", "tests/vm/guest/*", "tests/vm/debian/*",
               "tests/lib/guest-*.sh", "tools/deb/debian/*", "tools/udev/*"]


def parse_deps(path):
    """The packages of every list of install-deps.sh."""
    text = open(path).read()
    lists = {}
    for m in re.finditer(r'^([a-z_0-9]+)="([^"]*)"', text, re.M):
        lists[m.group(1)] = m.group(2)
    pkgs = set()
    for v in lists.values():
        for w in v.split():
            if w.startswith("$"):
                w = lists.get(w[1:].strip("{}"), "")
                pkgs.update(w.split())
            else:
                pkgs.add(w)
    return pkgs


def make_to_shell(line):
    """A recipe line as the shell sees it: make's $(VAR) -> MAKEVAR, $$ -> $."""
    out, i, n = [], 0, len(line)
    while i < n:
        c = line[i]
        if c == "$" and i + 1 < n:
            d = line[i + 1]
            if d == "$":
                out.append("$")
                i += 2
                continue
            if d in "({":
                close = ")" if d == "(" else "}"
                depth, j = 1, i + 2
                while j < n and depth:
                    if line[j] == d:
                        depth += 1
                    elif line[j] == close:
                        depth -= 1
                    j += 1
                out.append("MAKEVAR")
                i = j
                continue
            out.append("MAKEVAR")
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


CMD_SEPS = {";", "|", "||", "&&", "&", "(", "{", "!", "then", "do", "else", "elif",
            "if", "while", "until", "time", "exec", "command", "$(", "`", "\n", "|&"}
WRAPPERS = {"timeout", "nice", "env", "stdbuf", "nohup", "setsid", "xargs", "fakeroot",
            "flock", "setpriv", "runuser", "unshare", "sudo", "time"}


# options of the wrappers that take the next word as their argument
WRAPPER_ARG_OPTS = {
    "env": {"-u", "--unset", "-C", "--chdir", "-S"},
    "nice": {"-n", "--adjustment"},
    "unshare": {"--propagation", "--setgroups"},
    "xargs": {"-n", "-I", "-P", "-L", "-d", "-s", "-a", "-E"},
    "flock": {"-w", "-E", "--timeout", "--conflict-exit-code"},
    "stdbuf": {"-i", "-o", "-e"},
    "sudo": {"-u", "-g"},
    "runuser": {"-u", "-g"},
}


def subst_end(text, i, op="(", cl=")"):
    """The index of the ) closing a $( whose text starts at i (quotes and
    nested parentheses respected)."""
    depth, n = 1, len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            k = text.find("'", i + 1)
            i = n if k < 0 else k + 1
            continue
        if c == '"':
            k = i + 1
            while k < n and text[k] != '"':
                k += 2 if text[k] == "\\" else 1
            i = k + 1
            continue
        if c == op:
            depth += 1
        elif c == cl:
            depth -= 1
            if not depth:
                return i
        i += 1
    return n


def shell_commands(text):
    """(line, command) of the commands a shell text runs, outside quotes,
    comments and here-documents."""
    found = []
    i, n, line = 0, len(text), 1
    toks = []          # (kind, value, line): kind "w" word, "op" operator
    heredocs = []
    word, wline, quoted = "", 0, False

    def flush():
        nonlocal word, quoted
        if word or quoted:
            toks.append(("w", word, wline))
        word, quoted = "", False

    stack = []         # for $( ... ): nothing but depth
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n:
            if text[i + 1] == "\n":
                line += 1
                i += 2
                continue
            word += text[i + 1]
            wline = wline or line
            i += 2
            continue
        if c == "'":
            j = text.find("'", i + 1)
            j = n if j < 0 else j
            line += text.count("\n", i, j)
            word += "Q"
            quoted = True
            wline = wline or line
            i = j + 1
            continue
        if c == '"':
            # double quotes: the text is a word; a $( inside runs commands
            j = i + 1
            while j < n and text[j] != '"':
                if text[j] == "\\":
                    j += 1
                elif text.startswith("$(", j) and not text.startswith("$((", j):
                    k = subst_end(text, j + 2)
                    base = line + text.count("\n", i, j)
                    for ln, cmd in shell_commands(text[j + 2:k]):
                        found.append((base + ln - 1, cmd))
                    j = k
                elif text.startswith("$((", j):
                    k = text.find("))", j)
                    j = n if k < 0 else k + 1
                j += 1
            line += text.count("\n", i, j)
            word += "D"
            quoted = True
            wline = wline or line
            i = j + 1
            continue
        if c == "#" and not word:
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "\n":
            flush()
            toks.append(("op", "\n", line))
            line += 1
            i += 1
            if heredocs:
                for tag in heredocs:
                    while i < n:
                        j = text.find("\n", i)
                        j = n if j < 0 else j
                        cur = text[i:j]
                        line += 1
                        i = j + 1
                        if cur.strip() == tag:
                            break
                heredocs = []
            continue
        if c in " \t":
            flush()
            i += 1
            continue
        if text.startswith("$(", i) and not text.startswith("$((", i):
            flush()
            toks.append(("op", "$(", line))
            stack.append(1)
            i += 2
            continue
        if text.startswith("$((", i):
            # arithmetic: skip to the matching ))
            j = text.find("))", i)
            word += "ARITH"
            i = n if j < 0 else j + 2
            continue
        if c == "$" and i + 1 < n and text[i + 1] == "{":
            j = subst_end(text, i + 2, "{", "}")
            line += text.count("\n", i, j)
            word += "$VAR"
            i = j + 1
            continue
        if text.startswith("<<", i) and not text.startswith("<<<", i):
            flush()
            m = re.match(r"<<-?\s*(['\"]?)([A-Za-z_0-9]+)\1", text[i:])
            if m:
                heredocs.append(m.group(2))
                i += m.end()
                continue
            i += 2
            continue
        for op in ("&&", "||", "|&", ";;", ";", "|", "&", "(", ")", "`"):
            if text.startswith(op, i):
                flush()
                toks.append(("op", op, line))
                i += len(op)
                break
        else:
            if c in "<>":
                flush()
                # a redirection's target is not a command
                j = i
                while j < n and text[j] in "<>&0123456789":
                    j += 1
                toks.append(("op", "redir", line))
                i = j
                continue
            if not word:
                wline = line
            word += c
            i += 1
    flush()

    # command positions
    at_cmd, after_redir, case_pat, skip_args = True, False, [], 0
    prev_word, in_array, in_test, timeout_opts = None, False, False, False
    wrapper = None
    for kind, val, ln in toks:
        if in_array:            # NAME=( words ): not commands
            in_array = not (kind == "op" and val == ")")
            continue
        if in_test:             # [[ ... ]]: an expression
            in_test = not (kind == "w" and val == "]]")
            continue
        if kind == "op" and val == "(" and prev_word and re.match(
                r"^[A-Za-z_][A-Za-z_0-9]*\+?=$", prev_word):
            in_array = True
            continue
        if kind == "w" and val == "[[":
            in_test = True
            continue
        if kind == "op":
            if val == "redir":
                after_redir = True
                continue
            if val == ";;":
                if case_pat:
                    case_pat[-1] = True
                at_cmd = True
            elif val == ")" and case_pat and case_pat[-1]:
                case_pat[-1] = False
                at_cmd = True
            else:
                at_cmd = val in CMD_SEPS or val in ("(", "$(", "`", "\n")
            after_redir = False
            prev_word = None
            continue
        if after_redir:
            after_redir = False
            continue
        if case_pat and case_pat[-1]:
            if val == "esac":
                case_pat.pop()
                at_cmd = False
            continue       # a case pattern
        if prev_word == "case" or (prev_word and prev_word.startswith("case:")):
            if val == "in":
                case_pat.append(True)
                at_cmd = False
                prev_word = None
                continue
            prev_word = "case:" + val
            continue
        if val == "esac" and case_pat:
            case_pat.pop()
            continue
        if not at_cmd:
            prev_word = val
            continue
        if val in ("then", "do", "else", "elif", "if", "while", "until", "!", "{",
                   "time", "exec", "command", "}", "fi", "done"):
            at_cmd = val not in ("}", "fi", "done")
            prev_word = val
            continue
        if val == "case":
            prev_word = "case"
            at_cmd = False
            continue
        if val in ("for", "select", "function", "local", "export", "declare",
                   "readonly", "typeset"):
            at_cmd = False
            prev_word = val
            continue
        if re.match(r"^[A-Za-z_][A-Za-z_0-9]*(\[[^]]*\])?\+?=", val):
            prev_word = val
            continue       # an assignment before the command
        if timeout_opts:        # timeout [-k D] [-s SIG] [--foreground] DURATION
            if val in ("-k", "-s", "--kill-after", "--signal"):
                skip_args = 1
                continue
            if val.startswith("-"):
                continue
            timeout_opts = False
            continue
        if skip_args:
            skip_args -= 1
            continue
        if val in WRAPPERS:
            wrapper = val
            found.append((ln, val))
            if val == "timeout":
                timeout_opts = True
            prev_word = val
            continue
        if val.startswith("-") and wrapper:
            if val in WRAPPER_ARG_OPTS.get(wrapper, ()):
                skip_args = 1
            continue
        found.append((ln, val))
        at_cmd = False
        wrapper = None
        prev_word = val
    return found


def command_name(word):
    """The command a word names, or None (variables, the tree's scripts)."""
    if not word or any(ch in word for ch in "$*?=") or word in ("Q", "D"):
        return None
    if "MAKEVAR" in word or "ARITH" in word:
        return None
    if word[0] in "Q D".split() and len(word) > 1:
        return None
    if "/" in word:
        if re.match(r"^/(usr/)?s?bin/[^/]+$", word):
            return word.rsplit("/", 1)[1]
        return None       # a path: the tree's own script or a built program
    if not re.match(r"^[A-Za-z0-9_.+-]+$", word) or word[0] in ".-+" or word.isdigit():
        return None
    return word


def shell_functions(texts):
    names = set()
    for t in texts:
        for m in re.finditer(r"^\s*(?:function\s+)?([A-Za-z_][A-Za-z_0-9-]*)\s*\(\)", t, re.M):
            names.add(m.group(1))
        for m in re.finditer(r"^\s*function\s+([A-Za-z_][A-Za-z_0-9-]*)", t, re.M):
            names.add(m.group(1))
    return names


def is_guest(rel, text):
    if any(fnmatch.fnmatch(rel, g) for g in GUEST_GLOBS):
        return True
    head = "\n".join(text.splitlines()[:6])
    return bool(re.search(r"^# /(tests|payload)/", head, re.M) or "Guest side" in head)


def scan_make(text):
    found = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        ln = i + 1
        cur = lines[i]
        while cur.endswith("\\") and i + 1 < len(lines):
            i += 1
            cur = cur[:-1] + " " + lines[i].lstrip("\t")
        i += 1
        for m in re.finditer(r"\$\(shell\s+([A-Za-z0-9_.+-]+)", cur):
            found.append((ln, m.group(1)))
        if cur.startswith("\t"):
            body = make_to_shell(cur[1:]).lstrip("@-+ \t")
            found += [(ln, c) for _, c in shell_commands(body)]
    return found


PY_CALL = re.compile(
    r"""(?:subprocess\.(?:run|call|check_call|check_output|Popen)|os\.exec\w*p?)\(\s*\[\s*(['"])([^'"]+)\1""")


def scan_python(text):
    found = []
    for m in PY_CALL.finditer(text):
        found.append((text.count("\n", 0, m.start()) + 1, m.group(2)))
    for m in re.finditer(r"shutil\.which\(\s*(['\"])([^'\"]+)\1", text):
        found.append((text.count("\n", 0, m.start()) + 1, m.group(2)))
    return found


def tree_files(root):
    skip = {".git", "build", "build-san", "node_modules"}
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in skip and not x.startswith("build"))
        for f in sorted(files):
            p = os.path.join(d, f)
            rel = os.path.relpath(p, root)
            if f.endswith((".sh", ".mk", ".py")) or f == "Makefile" or rel == ".ci/run":
                yield rel
            elif "." not in f:
                try:
                    with open(p, "rb") as fh:
                        first = fh.readline(80)
                except OSError:
                    continue
                if re.match(rb"#!\s*/(usr/)?bin/(env\s+)?(ba)?sh\b", first):
                    yield rel


def main(argv):
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../.."))
    deps = None
    files = []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--root":
            root = args.pop(0)
        elif a == "--deps":
            deps = args.pop(0)
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.startswith("-"):
            print(f"check-commands: unknown option '{a}'", file=sys.stderr)
            return 2
        else:
            files.append(a)
    deps = deps or os.path.join(root, "tools/devel/install-deps.sh")
    listed = parse_deps(deps) | MINBASE
    explicit = bool(files)
    if not files:
        files = list(tree_files(root))
    texts = {}
    for rel in files:
        p = rel if explicit else os.path.join(root, rel)
        with open(p, errors="replace") as fh:
            texts[rel] = fh.read()
    funcs = shell_functions(t for r, t in texts.items()
                            if not r.endswith((".py",)))
    passed = failed = 0
    for pkg, why in sorted(INDIRECT.items()):
        if pkg in listed:
            passed += 1
        else:
            failed += 1
            print(f"check-commands: {why} needs package {pkg}, in no list of {deps}")
    for rel, text in texts.items():
        if not explicit and is_guest(rel, text):
            continue
        if rel.endswith(".py"):
            cmds = scan_python(text)
        elif rel.endswith(".mk") or os.path.basename(rel) == "Makefile":
            cmds = scan_make(text)
        else:
            cmds = shell_commands(text)
        bad = []
        for ln, word in cmds:
            c = command_name(word)
            if not c or c in BUILTINS or c in funcs or c in PROJECT:
                continue
            pkg = PROVIDER.get(c)
            if rel in SELF_INSTALLED.get(c, ()):
                continue
            if pkg is None:
                bad.append(f"{rel}:{ln}: '{c}': unknown command: add it to PROVIDER in "
                           f"tests/deps/check-commands.py with its Debian package")
            elif pkg != "BUILT" and pkg not in listed:
                bad.append(f"{rel}:{ln}: '{c}' (Debian package {pkg}) is installed by no "
                           f"list of tools/devel/install-deps.sh")
        if bad:
            failed += 1
            seen = set()
            for b in bad:
                key = b.split(": ", 1)[1]
                if key not in seen:
                    seen.add(key)
                    print("check-commands: " + b)
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the hand-made seeds of fuzz-api-seq (input format: see step() in
# fuzz-api-seq.c). Run from tests/fuzz/.
#
# Byte 0 picks the teardown order; then actions: an action byte (mod 24),
# a slot byte, and the action's own bytes.
import os

DEV_OPEN, DEV_CLOSE, BUF_ALLOC, BUF_FREE, BUF_TOUCH = 0, 1, 2, 4, 5
CB_NEW, CB_FREE, CB_ADD, CB_SUBMIT, CB_WAIT, CB_RUN, CB_RESET = 6, 7, 8, 11, 12, 13, 14
CB_OUTCOME, OPS_NEW, OPS_FREE, OPS_MATMUL, FC, RUN_CPU, INJECT = 15, 16, 17, 18, 19, 20, 21
PERF = 22

SIZE_4096 = 4
NULL_BUF = 6  # tensor buffer byte % 7 == 6: no buffer


def tensor(buf, off16=0, stride16=1):
    return bytes([buf, off16, stride16])


def relu(cb, a, c, rows=4):
    # a, b (unused), c; m = rows, n = 1 (16 bytes a row), k; kind 0 = relu
    return bytes([CB_ADD, cb]) + tensor(a) + tensor(NULL_BUF) + tensor(c) + \
        bytes([rows - 1, 0, 0, 0])


def matmul(cb, a, b, c):
    # m = n = k = 4 (16 bytes a row of a, b; c rows of 4 int32); kind 1
    return bytes([CB_ADD, cb]) + tensor(a) + tensor(b) + tensor(c) + \
        bytes([3, 3, 3, 1, 0])


def alloc(slot, dev=0, size=SIZE_4096):
    return bytes([BUF_ALLOC, slot + 6 * dev, size])


def act(a, s=0, *rest):
    return bytes([a, s] + list(rest))


BASE = act(DEV_OPEN) + alloc(0) + alloc(1) + act(CB_NEW)

S = {
    # issue 11 bug 3: add_op (relu A -> C), free A, run
    'regress-bug3-free-before-run': bytes([0]) + BASE + relu(0, 0, 1) +
    act(BUF_FREE, 0) + act(CB_RUN, 0),
    # issue 11 bug 3: run + wait, free A, resubmit
    'regress-bug3-free-then-resubmit': bytes([0]) + BASE + relu(0, 0, 1) +
    act(CB_RUN, 0) + act(BUF_FREE, 0) + act(CB_SUBMIT, 0) + act(CB_WAIT, 0x81),
    # issue 11 bug 4: ops_new, one matmul, close the device, free the context
    'regress-bug4-ops-after-close': bytes([0]) + act(DEV_OPEN) + act(OPS_NEW, 0) +
    act(OPS_MATMUL, 0, 3, 3, 3, 7) + act(DEV_CLOSE, 0) + act(OPS_FREE, 0),
    'matmul-run-outcome': bytes([5]) + BASE + alloc(2) + act(BUF_TOUCH, 0, 0x11) +
    act(BUF_TOUCH, 1, 0x22) + matmul(0, 0, 1, 2) + act(CB_RUN, 0) +
    act(CB_OUTCOME, 0, 0),
    'submit-close-free': bytes([17]) + BASE + relu(0, 0, 1) + act(CB_SUBMIT, 0) +
    act(DEV_CLOSE, 0) + act(BUF_FREE, 1) + act(CB_WAIT, 0) + act(CB_FREE, 0),
    'two-devices-exdev': bytes([33]) + BASE + act(DEV_OPEN, 1) + alloc(2, dev=1) +
    relu(0, 0, 2) + relu(0, 0, 1) + act(CB_RUN, 0),
    'fc-outlives-context': bytes([60]) + act(DEV_OPEN) + act(OPS_NEW, 0) +
    act(FC, 0, 0, 0, 7, 5) + act(OPS_FREE, 0) + act(DEV_CLOSE, 0) +
    act(FC, 0x80, 2) + act(FC, 0),
    'cpu-only-context': bytes([1]) + act(OPS_NEW, 3) + act(OPS_MATMUL, 1, 7, 7, 7, 1) +
    act(FC, 1, 1, 15, 15, 1) + act(FC, 0x81, 3),
    'hang-then-free-submitted': bytes([90]) + BASE + act(INJECT, 0, 4) +
    relu(0, 0, 1) + act(CB_SUBMIT, 0) + act(CB_FREE, 0) + act(INJECT, 0, 2) +
    act(OPS_NEW, 0) + act(OPS_MATMUL, 0, 2, 2, 2, 9),
    'bus-error-reset-rerun': bytes([7]) + BASE + relu(0, 0, 1) + act(INJECT, 0, 1) +
    act(CB_RUN, 0) + act(INJECT, 0, 2) + act(CB_RUN, 0) + act(CB_RESET, 0) +
    act(PERF, 0),
    'arena-exhaustion': bytes([11]) + act(DEV_OPEN) + act(OPS_NEW, 0) +
    act(OPS_MATMUL, 0, 7, 7, 7, 3) + alloc(0, size=7) + alloc(1, size=7) +
    alloc(2, size=8) + act(OPS_MATMUL, 0, 7, 7, 7, 3),
    'run-cpu': bytes([2]) + act(DEV_OPEN) + alloc(0) + alloc(1) +
    bytes([RUN_CPU, 0]) + tensor(0) + tensor(NULL_BUF) + tensor(1) + bytes([3, 0, 0, 0]),
}
os.makedirs('corpus-fuzz-api-seq', exist_ok=True)
for name, b in S.items():
    with open(os.path.join('corpus-fuzz-api-seq', name), 'wb') as fh:
        fh.write(b)

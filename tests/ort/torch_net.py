#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The PyTorch user's path for check-ort-models: a small network defined
in PyTorch, trained for a few seconds on data generated here (seeded), and
exported with torch.onnx.export; tests/ort/ort_models.py then quantizes it
with quantize_static and runs it with ORT+e1 and the CPU EP.

Runs on the host (Debian 12's python3-torch; the sid root has no torch),
writes DIR/torch_net.onnx and DIR/status ("OK torch_net.onnx ..." or
"SKIP torch_net.onnx REASON"); a network that does not learn its task
is "FAIL torch_net.onnx REASON".

Usage: torch_net.py DIR
"""
import os
import sys
import time
import warnings

SIZE = 32       # input images: 3 x 32 x 32
CLASSES = 4     # which quadrant holds the bright square


def status(d, line):
    with open(os.path.join(d, "status"), "w") as f:
        f.write(line + "\n")
    print("torch_net: " + line)


def make_data(torch, g, n):
    """n images of noise in [0, 0.5) with a 6x6 square of brightness 0.5
    added in one quadrant (the label), at a random place in it."""
    x = torch.rand(n, 3, SIZE, SIZE, generator=g) * 0.5
    y = torch.randint(0, CLASSES, (n,), generator=g)
    half = SIZE // 2
    off = torch.randint(0, half - 6, (n, 2), generator=g)
    for i in range(n):
        r = (y[i] // 2) * half + off[i, 0]
        c = (y[i] % 2) * half + off[i, 1]
        x[i, :, r:r + 6, c:c + 6] += 0.5
    return x, y


def build(torch):
    nn = torch.nn

    class Net(nn.Module):
        """conv -> depthwise + pointwise with a residual Add -> strided
        conv -> nearest upsampling (Resize) -> Concat with the residual
        branch -> 1x1 conv -> pooling -> MatMul -> Gemm -> Softmax."""

        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(3, 16, 3, padding=1)
            self.dw = nn.Conv2d(16, 16, 3, padding=1, groups=16)
            self.pw = nn.Conv2d(16, 16, 1)
            self.down = nn.Conv2d(16, 16, 3, stride=2, padding=1)
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.mix = nn.Conv2d(32, 8, 1)
            self.pool = nn.MaxPool2d(8)
            self.w1 = nn.Parameter(torch.randn(8 * 4 * 4, 32) * 0.1)
            self.fc = nn.Linear(32, CLASSES)

        def forward(self, x):
            s = torch.relu(self.stem(x))
            r = s + self.pw(torch.relu(self.dw(s)))             # Add
            d = torch.relu(self.down(r))
            cat = torch.cat([r, self.up(d)], dim=1)              # Resize, Concat
            m = self.pool(torch.relu(self.mix(cat)))
            h = torch.relu(torch.matmul(m.flatten(1), self.w1))  # MatMul
            return torch.softmax(self.fc(h), dim=1)              # Gemm, Softmax

    return Net()


def main():
    if len(sys.argv) != 2:
        print("usage: torch_net.py DIR", file=sys.stderr)
        return 2
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    try:
        import torch
    except ImportError as e:
        status(d, "SKIP torch_net.onnx python3-torch is not installed (%s)" % e)
        return 0
    t0 = time.time()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    g = torch.Generator().manual_seed(1)
    x, y = make_data(torch, g, 512)
    xt, yt = make_data(torch, g, 256)
    net = build(torch)
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    for epoch in range(6):
        for i in range(0, len(x), 32):
            p = net(x[i:i + 32])
            loss = torch.nn.functional.nll_loss(torch.log(p + 1e-9), y[i:i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
    net.eval()
    with torch.no_grad():
        acc = (net(xt).argmax(1) == yt).float().mean().item()
    if acc < 0.9:
        status(d, "FAIL torch_net.onnx trained %.0f s: held-out accuracy %.3f < 0.9"
               % (time.time() - t0, acc))
        return 1
    path = os.path.join(d, "torch_net.onnx")
    # 1.13's exporter warns of prim::Constant's shape inference: harmless
    warnings.filterwarnings("ignore", category=UserWarning)
    torch.onnx.export(net, x[:1], path, opset_version=13, input_names=["image"],
                      output_names=["probs"], do_constant_folding=True)
    status(d, "OK torch_net.onnx PyTorch %s (torch.onnx.export), trained %.1f s, held-out accuracy %.3f"
           % (torch.__version__, time.time() - t0, acc))
    return 0


if __name__ == "__main__":
    sys.exit(main())

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # 1 input image channel, 6 output channels, 3x3 square convolution
        self.conv1 = nn.Conv2d(1, 6, 3)
        self.conv2 = nn.Conv2d(6, 16, 3)
        # an affine operation: y = Wx + b
        self.fc1 = nn.Linear(16 * 6 * 6, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    # kiln: x=f32[B,1,32,32]
    def forward(self, x):
        # Max pooling over a (2, 2) window
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        # If the size is a square you can only specify a single number
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(-1, 16 * 6 * 6)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


# -- Training ---------------------------------------------------------------
# kiln compiles only the class above (`--entry Net`); everything below is
# plain PyTorch that kiln skips. Run this file to train Net:
#
#   /usr/bin/python3 examples/models/lenet.py [--out DIR]
#
# It needs no download: it trains on synthetic handwriting-like digits,
# rendered from the 5x7 bitmap font below with a random size, aspect,
# slant, rotation, position, ink and noise into 28x28 images, padded to
# LeNet's 32x32 as LeNet-5 padded MNIST. 20,000 training images, 3 epochs
# of Adam on one thread, seeded: about 15 seconds, and 99.45% right on
# 2,000 held-out images. It writes, in DIR (default: the current folder):
#
#   net.safetensors  Net's trained state_dict(), for kiln compile --weights
#   images.npy       the first 8 held-out images, f32[8, 1, 32, 32]
#   labels.npy       their digits, i64[8]
#
# safetensors is not a Debian package; `./dev deps` installs it into
# build/python-deps, which this script finds on its own (or set
# KILN_PYTHON_DEPS to the folder that holds it).

DIGITS_5X7 = [
    [".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."],
    ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."],
    [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"],
    ["#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."],
    ["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."],
    ["#####", "#....", "####.", "....#", "....#", "#...#", ".###."],
    ["..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."],
    ["#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."],
    [".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."],
    [".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."],
]


def make_digits(n, generator):
    """n random digits: f32[n, 1, 32, 32] images in [0, 1], i64[n] labels."""
    import math
    labels = torch.randint(0, 10, (n,), generator=generator)

    def uniform(lo, hi):
        return lo + (hi - lo) * torch.rand(n, generator=generator)

    # Each glyph cell becomes 4x4 pixels, with a 1-cell blank border: 36x28.
    font = torch.tensor([[[c == "#" for c in row] for row in digit]
                         for digit in DIGITS_5X7], dtype=torch.float32)
    font = font.repeat_interleave(4, 1).repeat_interleave(4, 2)
    font = F.pad(font, (4, 4, 4, 4)).unsqueeze(1)
    # The glyph's box in the 28x28 frame: 14 to 22 pixels high, its width
    # 5/7 of that times 0.75 to 1.25, shifted up to 2.5 pixels each way.
    height = uniform(14, 22)
    width = height * 5 / 7 * uniform(0.75, 1.25)
    angle = uniform(-12, 12) * math.pi / 180
    slant = uniform(-0.25, 0.25)
    shift = torch.stack([uniform(-2.5, 2.5), uniform(-2.5, 2.5)], 1) / 14
    # affine_grid maps each output point (in [-1, 1]) to a glyph point.
    sx, sy = 20 / width, 28 / height * 28 / 36
    cos, sin = torch.cos(angle), torch.sin(angle)
    a = torch.stack([torch.stack([cos * sx, (sin + slant) * sx], 1),
                     torch.stack([-sin * sy, cos * sy], 1)], 1)
    theta = torch.cat([a, -(a @ shift.unsqueeze(2))], 2)
    grid = F.affine_grid(theta, [n, 1, 28, 28], align_corners=False)
    images = F.grid_sample(font[labels], grid, align_corners=False)
    images = images * uniform(0.6, 1.0).view(n, 1, 1, 1)
    images = F.pad(images, (2, 2, 2, 2))
    noise = uniform(0.0, 0.3).view(n, 1, 1, 1)
    images = images + noise * torch.randn(images.shape, generator=generator)
    return images.clamp(0, 1), labels


def save_safetensors(state, path):
    """Saves a state_dict with safetensors, found in build/python-deps if
    it is not installed."""
    import os
    import sys
    try:
        from safetensors.torch import save_file
    except ImportError:
        repo = os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))))
        deps = os.environ.get("KILN_PYTHON_DEPS") or os.path.join(
            repo, os.environ.get("KILN_BUILD_DIR", "build"), "python-deps")
        if not os.path.isdir(os.path.join(deps, "safetensors")):
            sys.exit("lenet.py: no safetensors package in %s; run ./dev deps"
                     % deps)
        sys.path.insert(0, deps)
        from safetensors.torch import save_file
    save_file({name: tensor.detach().contiguous()
               for name, tensor in state.items()}, path)


def train(out_dir):
    import os
    import numpy as np
    torch.set_num_threads(1)  # so the result does not depend on the cores
    torch.manual_seed(0)
    data = torch.Generator().manual_seed(1)
    images, labels = make_digits(20000, data)
    test_images, test_labels = make_digits(2000, data)
    print("training LeNet on %d synthetic digits (28x28, padded to 32x32)"
          % len(images))
    net = Net()
    optimizer = torch.optim.Adam(net.parameters(), lr=2e-3)
    epochs, batch = 3, 64
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(images))
        total = 0.0
        for start in range(0, len(images), batch):
            index = order[start:start + batch]
            loss = F.cross_entropy(net(images[index]), labels[index])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(index)
        net.eval()
        with torch.no_grad():
            right = int((net(test_images).argmax(1) == test_labels).sum())
        print("epoch %d/%d: loss %.4f, held-out accuracy %.2f%% (%d/%d)" % (
            epoch + 1, epochs, total / len(images),
            100.0 * right / len(test_images), right, len(test_images)))

    os.makedirs(out_dir, exist_ok=True)
    save_safetensors(net.state_dict(), os.path.join(out_dir, "net.safetensors"))
    np.save(os.path.join(out_dir, "images.npy"), test_images[:8].numpy())
    np.save(os.path.join(out_dir, "labels.npy"), test_labels[:8].numpy())
    print("wrote net.safetensors, images.npy (8 held-out images) and "
          "labels.npy: %s" % " ".join(str(int(v)) for v in test_labels[:8]))


if __name__ == "__main__":
    # Code == Model: the same file trains here and compiles with kiln.
    import argparse
    parser = argparse.ArgumentParser(
        description="Train Net on synthetic digits and save its weights.")
    parser.add_argument("--out", default=".", help="where to write "
                        "net.safetensors, images.npy and labels.npy")
    train(parser.parse_args().out)

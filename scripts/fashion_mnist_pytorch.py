#!/usr/bin/env python3
"""PyTorch's twin of examples/fashion_mnist, for timing kt against PyTorch on the same task.

The same data (Debian's dataset-fashion-mnist IDX files, read with numpy), the same
normalisation (0.2860, 0.3530), model (784-256-128-10, ReLU), optimizer (Adam, lr 1e-3),
batch (256, shuffled every epoch) and epochs (10) as kt's example, on the CPU with a given
thread count. Prints one line per epoch and a final line

    Final test accuracy 88.4% after 10 epochs, training time 12.1 s

in the example's format, so scripts/compare_pytorch.sh can read both the same way. Exits with
77 and "skipped: python3-torch is not installed" when torch cannot be imported.

    python3 scripts/fashion_mnist_pytorch.py [--epochs 10] [--threads 2] [--workers 0] [--data DIR]
"""
import argparse
import gzip
import os
import sys
import time

try:
    import numpy as np
    import torch
    import torch.nn.functional as F
except ImportError:
    print("skipped: python3-torch is not installed")
    sys.exit(77)


def read_idx(path):
    """An IDX file (gzip) as a numpy array: magic (0, 0, dtype 0x08 = uint8, rank), big-endian dims."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] != 0x08:
        raise SystemExit(f"{path}: not an IDX file of unsigned bytes")
    rank = data[3]
    dims = [int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(rank)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * rank).reshape(dims)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)

    def images(name):
        x = torch.from_numpy(read_idx(os.path.join(args.data, name)).astype(np.float32) / 255.0)
        return ((x - 0.2860) / 0.3530).reshape(len(x), 784)

    def labels(name):
        return torch.from_numpy(read_idx(os.path.join(args.data, name)).astype(np.int64))

    train_x, train_y = images("train-images-idx3-ubyte.gz"), labels("train-labels-idx1-ubyte.gz")
    test_x, test_y = images("t10k-images-idx3-ubyte.gz"), labels("t10k-labels-idx1-ubyte.gz")
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(train_x, train_y),
                                         batch_size=args.batch_size, shuffle=True, num_workers=args.workers)
    model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 128),
                                torch.nn.ReLU(), torch.nn.Linear(128, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    training = 0.0
    accuracy = 0.0
    for epoch in range(1, args.epochs + 1):
        start = time.perf_counter()
        total, batches = 0.0, 0
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            batches += 1
        seconds = time.perf_counter() - start
        training += seconds
        with torch.no_grad():
            accuracy = (model(test_x).argmax(1) == test_y).float().mean().item() * 100
        print(f"epoch {epoch:2d}/{args.epochs}  train loss {total / batches:.4f}  test accuracy {accuracy:.2f}%  "
              f"epoch {seconds:.2f} s", flush=True)
    print(f"Final test accuracy {accuracy:.1f}% after {args.epochs} epochs, training time {training:.1f} s")


if __name__ == "__main__":
    main()

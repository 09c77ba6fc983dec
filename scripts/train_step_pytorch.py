#!/usr/bin/env python3
"""PyTorch's twin of kt's training-step benchmark (bench/bench_train.cpp), for a GPU machine.

One step = opt.zero_grad(set_to_none=False); F.cross_entropy(model(x), y).backward(); opt.step()
on MLPs of nn.Linear + ReLU, fp32 with TF32 off, in up to three modes: eager (the plain loop),
graph (PyTorch's CUDA-graph recipe: warm-up on a side stream, the whole step captured, each step a
copy into the static inputs and a replay) and compile (torch.compile of model + loss and of
opt.step). With --fashion-mnist DIR also the recipe of scripts/fashion_mnist_pytorch.py with the
data resident on the device, eager and as a CUDA graph. Each section reports its own errors and
the script goes on: the exit code is 0 unless the arguments are wrong (2).

    python3 scripts/train_step_pytorch.py [--device cuda|cpu] [--steps 200] [--warmup 20]
        [--modes eager,graph,compile] [--compile-budget 300] [--fashion-mnist DIR] [--epochs 10]
        [--json FILE]
"""
import argparse
import gzip
import json
import os
import struct
import subprocess
import sys
import time

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    print("skipped: torch is not installed")
    sys.exit(0)

MODES = ("eager", "graph", "compile")
# (widths, batch, optimizer): the rows of bench_train's summary.
CASES = [((784, 512, 512, 10), 32, "SGD"), ((784, 512, 512, 10), 256, "SGD"), ((784, 512, 512, 10), 1024, "SGD"),
         ((64, 64, 64, 10), 32, "SGD"), ((784, 512, 512, 10), 256, "Adam")]
MEAN, STD = 0.2860, 0.3530  # Fashion-MNIST's training-set pixel mean and standard deviation


def describe(e):
    return f"{type(e).__name__}: {(str(e).strip().splitlines() or [''])[0]}"


def error(where, e):
    print(f"{where}: {describe(e)}")


def mlp(widths):
    layers = []
    for i in range(len(widths) - 1):
        layers.append(torch.nn.Linear(widths[i], widths[i + 1]))
        if i + 2 < len(widths):
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers)


def sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize()


def settings(device, args, results):
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    info = {"torch": torch.__version__, "device": str(device), "cuda_runtime": torch.version.cuda,
            "precision": "fp32, TF32 off", "threads": torch.get_num_threads()}
    if device.type == "cuda":
        info["device_name"] = torch.cuda.get_device_name(device)
        try:
            info["driver"] = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                            capture_output=True, text=True, timeout=30).stdout.strip().splitlines()[0]
        except Exception as e:  # no nvidia-smi: the driver stays unknown
            info["driver"] = f"unknown ({type(e).__name__})"
    print("## settings")
    for k, v in info.items():
        print(f"{k}: {v}")
    print()
    results["settings"] = info


def capture(step, before=lambda: None):
    """PyTorch's CUDA-graph recipe: 3 warm-up steps on a side stream, then `step` captured."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up outside the graph: optimizer state, cuBLAS handles
        for _ in range(3):
            before()
            step()
    torch.cuda.current_stream().wait_stream(side)
    before()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = step()
    return graph, out


def time_step(mode, widths, batch, opt_name, device, args):
    """ms per step and the loss after the timed steps, for one case in one mode."""
    torch.manual_seed(0)
    model = mlp(widths).to(device)
    if opt_name == "SGD":
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    else:
        opt = torch.optim.Adam(model.parameters(), lr=1e-3, capturable=(mode == "graph"))
    x = torch.randn(batch, widths[0], device=device)
    y = torch.randint(0, 10, (batch,), device=device)

    def step(a, b):
        opt.zero_grad(set_to_none=False)
        loss = F.cross_entropy(model(a), b)
        loss.backward()
        opt.step()
        return loss

    if mode == "graph":
        static_x, static_y = x.clone(), y.clone()
        graph, static_loss = capture(lambda: step(static_x, static_y))

        def run():
            static_x.copy_(x)  # a fresh batch into the static inputs
            static_y.copy_(y)
            graph.replay()
            return static_loss
    elif mode == "compile":
        torch._dynamo.reset()
        loss_fn = torch.compile(lambda a, b: F.cross_entropy(model(a), b))
        opt_step = torch.compile(opt.step)

        def run():
            opt.zero_grad(set_to_none=False)
            loss = loss_fn(x, y)
            loss.backward()
            opt_step()
            return loss
    else:
        run = lambda: step(x, y)

    start = time.perf_counter()
    warmup = args.warmup
    if mode == "compile":  # the first step compiles: one of the warm-up steps
        run()
        warmup -= 1
    for _ in range(warmup):
        run()
    sync(device)
    warm = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(args.steps):
        loss = run()
    sync(device)
    ms = (time.perf_counter() - start) / args.steps * 1e3
    return ms, loss.item(), warm


def step_benchmark(device, args, results):
    print(f"## training step: {args.steps} timed steps after {args.warmup} warm-up steps")
    # torch.compile cannot be interrupted (it swallows a signal's exception and falls back to eager),
    # so the budget is checked between cases: all compiling takes at most it plus one case's.
    compile_left = args.compile_budget
    compile_off = None  # why compile mode stopped
    rows = []
    for widths, batch, opt_name in CASES:
        name = f"{'-'.join(map(str, widths))} b{batch} {opt_name}"
        for mode in args.modes:
            if mode == "graph" and device.type != "cuda":
                continue
            if mode == "compile" and compile_off:
                continue
            try:
                ms, loss, warm = time_step(mode, widths, batch, opt_name, device, args)
                if mode == "compile":
                    compile_left -= warm
                rows.append({"step": name, "mode": f"torch {mode}", "ms_per_step": ms, "final_loss": loss,
                             "warmup_s": warm})
                # the loss after the timed steps, a sanity check: on the same batch every step, it should fall
                print(f"{name} torch {mode}: {ms:.3f} ms/step, loss after the timed steps {loss:.4f}, "
                      f"warm-up {warm:.1f} s" + (" (incl. compiling)" if mode == "compile" else ""))
            except Exception as e:
                if mode == "compile":
                    compile_off = describe(e)
                    print(f"compile: unavailable ({compile_off})")
                else:
                    error(f"{name} torch {mode}", e)
            finally:
                if mode == "compile" and compile_left <= 0 and not compile_off:
                    compile_off = "compile budget spent"
                    print(f"compile: stopped after {name}, --compile-budget spent")
                if device.type == "cuda":
                    torch.cuda.empty_cache()
    print("\n| step | mode | ms/step |\n| --- | --- | ---: |")
    for r in rows:
        print(f"| {r['step']} | {r['mode']} | {r['ms_per_step']:.3f} |")
    print()
    results["steps"] = rows
    if compile_off:
        results["compile_unavailable"] = compile_off


def read_idx(path):
    """An IDX file (gzip) of unsigned bytes as a uint8 tensor."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    zero, dtype, rank = struct.unpack(">HBB", data[:4])
    if zero != 0 or dtype != 0x08:
        raise ValueError(f"{path}: not an IDX file of unsigned bytes")
    dims = struct.unpack(f">{rank}I", data[4:4 + 4 * rank])
    return torch.frombuffer(bytearray(data[4 + 4 * rank:]), dtype=torch.uint8).reshape(dims)


def fashion_train(mode, data, device, args):
    """The recipe of scripts/fashion_mnist_pytorch.py with the data on the device, in one mode."""
    train_x, train_y, test_x, test_y = data
    n, batch = len(train_x), 256
    torch.manual_seed(0)
    model = mlp((784, 256, 128, 10)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, capturable=(mode == "graph"))
    total = torch.zeros((), device=device)  # the epoch's summed loss, kept on the device

    if mode == "graph":  # drop_last: every batch has 256 samples, so shapes stay static
        batches = n // batch
        static_idx = torch.arange(batch, device=device)
        params = [p.detach().clone() for p in model.parameters()]

        def step():
            loss = F.cross_entropy(model(train_x.index_select(0, static_idx)), train_y.index_select(0, static_idx))
            loss.backward()
            opt.step()
            total.add_(loss.detach())

        setup = time.perf_counter()
        # set_to_none before the capture: backward in the graph writes the gradients, no zeroing
        graph, _ = capture(step, lambda: opt.zero_grad(set_to_none=True))
        with torch.no_grad():  # undo the warm-up's steps: train from the same start as eager
            for p, p0 in zip(model.parameters(), params):
                p.copy_(p0)
            for state in opt.state.values():
                for t in state.values():
                    if torch.is_tensor(t):
                        t.zero_()
        sync(device)
        print(f"graph: warm-up and capture {time.perf_counter() - setup:.2f} s (not in the training time)")
    else:
        batches = (n + batch - 1) // batch

    losses, train_s, accuracy = [], 0.0, 0.0
    for epoch in range(1, args.epochs + 1):
        sync(device)
        start = time.perf_counter()
        total.zero_()
        perm = torch.randperm(n, device=device)
        for b in range(batches):
            idx = perm[b * batch:(b + 1) * batch]
            if mode == "graph":
                static_idx.copy_(idx)
                graph.replay()
            else:
                loss = F.cross_entropy(model(train_x.index_select(0, idx)), train_y.index_select(0, idx))
                opt.zero_grad()
                loss.backward()
                opt.step()
                total.add_(loss.detach())
        sync(device)
        seconds = time.perf_counter() - start
        train_s += seconds
        losses.append(total.item() / batches)
        with torch.no_grad():
            accuracy = (model(test_x).argmax(1) == test_y).float().mean().item() * 100
        print(f"{mode} epoch {epoch:2d}/{args.epochs}  train loss {losses[-1]:.4f}  test accuracy {accuracy:.2f}%  "
              f"epoch {seconds:.2f} s")
    return {"mode": f"torch {mode}", "train_s": train_s, "test_accuracy": accuracy, "epoch_losses": losses,
            "batches_per_epoch": batches, "drop_last": mode == "graph"}


def fashion_mnist(device, args, results):
    print(f"## Fashion-MNIST: 784-256-128-10 ReLU, Adam lr 1e-3, batch 256, {args.epochs} epochs, data on {device}")
    d = args.fashion_mnist

    def images(name):
        x = read_idx(os.path.join(d, name)).to(device).float() / 255.0
        return ((x - MEAN) / STD).reshape(len(x), 784)

    def labels(name):
        return read_idx(os.path.join(d, name)).to(device).long()

    data = (images("train-images-idx3-ubyte.gz"), labels("train-labels-idx1-ubyte.gz"),
            images("t10k-images-idx3-ubyte.gz"), labels("t10k-labels-idx1-ubyte.gz"))
    print(f"train {tuple(data[0].shape)}, test {tuple(data[2].shape)}; eager: all batches "
          "(the last one partial); graph: drop_last (full batches only, static shapes)")
    rows = []
    for mode in ("eager", "graph"):
        if mode not in args.modes or (mode == "graph" and device.type != "cuda"):
            continue
        try:
            rows.append(fashion_train(mode, data, device, args))
        except Exception as e:
            error(f"fashion_mnist torch {mode}", e)
    print(f"\n| fashion_mnist | mode | train s ({args.epochs} epochs) | test accuracy |\n| --- | --- | ---: | ---: |")
    for r in rows:
        name = "784-256-128-10 Adam b256" + (" drop_last" if r["drop_last"] else "")
        print(f"| {name} | {r['mode']} | {r['train_s']:.2f} | {r['test_accuracy']:.2f}% |")
    for r in rows:
        print(f"  {r['mode']} mean train loss per epoch: " + " ".join(f"{v:.4f}" for v in r["epoch_losses"]))
    print()
    results["fashion_mnist"] = rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--fashion-mnist", metavar="DIR")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--compile-budget", type=float, default=300, metavar="S",
                        help="seconds of torch.compile warm-up after which compile mode stops (default 300)")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # each line reaches a log even if a time limit kills us
    args.modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not args.modes or any(m not in MODES for m in args.modes):
        parser.error(f"--modes takes a comma-separated subset of {','.join(MODES)}")
    if args.steps < 1 or args.warmup < 0 or args.epochs < 1:
        parser.error("--steps and --epochs need at least 1, --warmup at least 0")
    if args.device == "cuda" and not torch.cuda.is_available():
        parser.error("--device cuda: CUDA is not available to this torch")
    if args.fashion_mnist and not os.path.isdir(args.fashion_mnist):
        parser.error(f"--fashion-mnist {args.fashion_mnist}: no such folder")

    device = torch.device(args.device)
    results = {}
    for section in (settings, step_benchmark, fashion_mnist if args.fashion_mnist else None):
        try:
            if section:
                section(device, args, results)
        except Exception as e:
            error(section.__name__, e)
    if args.json:
        try:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=2)
            print(f"results in {args.json}")
        except Exception as e:
            error("json", e)


if __name__ == "__main__":
    main()

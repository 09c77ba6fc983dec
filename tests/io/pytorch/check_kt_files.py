"""PyTorch's side of the interop check (ctest "io: PyTorch reads kt's files"), run on the
files write_kt_files wrote into DIR:

    /usr/bin/python3 tests/io/pytorch/check_kt_files.py DIR

1. kt_mlp.safetensors loads into the same nn.Sequential with load_state_dict(strict=True) and
   gives kt's outputs to 1e-6.
2. kt_run.safetensors, a kt::io::Checkpoint after 3 Adam steps: its model.* tensors and its
   optimizer.state.<i>.<key> tensors with the param_groups record become a PyTorch model and
   torch.optim.Adam state_dict; one more step in PyTorch matches kt's 4th step to 1e-6.
Prints "skipped: python3-torch is not installed" without torch (Debian: python3-torch).
"""
import json
import os
import sys

try:
    import torch
    from torch import nn
except ImportError:
    print("skipped: python3-torch is not installed")
    sys.exit(0)

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import safetensors_format as st  # noqa: E402


def mlp():
    return nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 8), nn.Tanh(), nn.Linear(8, 3))


def close(a, b, what):
    err = ((a - b).abs() / (1 + b.abs())).max().item()
    if err > 1e-6:
        sys.exit(f"FAIL: {what}: relative difference {err:.3g} > 1e-6")
    print(f"{what}: agrees to {err:.2g}")


def main(folder):
    state, meta = st.load(os.path.join(folder, "kt_mlp.safetensors"))
    assert meta.get("format") == "pt", meta
    model = mlp()
    model.load_state_dict(state, strict=True)
    io, _ = st.load(os.path.join(folder, "kt_mlp_io.safetensors"))
    with torch.no_grad():
        close(model(io["x"]), io["y"], "kt's MLP in PyTorch vs kt's outputs")

    tensors, meta = st.load(os.path.join(folder, "kt_run.safetensors"))
    model = mlp()
    model.load_state_dict({k[len("model."):]: v for k, v in tensors.items() if k.startswith("model.")}, strict=True)
    record = json.loads(meta["optimizer"])
    assert record["kind"] == "optimizer" and record["type"] == "kt::optim::Adam", record
    group = record["param_groups"][0]
    torch_group = {"lr": group["lr"], "betas": (group["beta1"], group["beta2"]), "eps": group["eps"],
                   "weight_decay": group["weight_decay"], "amsgrad": bool(group["amsgrad"]),
                   "maximize": bool(group["maximize"]), "foreach": None, "capturable": False,
                   "differentiable": False, "fused": False, "params": group["params"]}
    per_param = {}
    for name, t in tensors.items():
        if name.startswith("optimizer.state."):
            index, key = name[len("optimizer.state."):].split(".", 1)
            per_param.setdefault(int(index), {})[key] = t
    opt = torch.optim.Adam(model.parameters(), lr=group["lr"])
    opt.load_state_dict({"state": per_param, "param_groups": [torch_group]})
    data, _ = st.load(os.path.join(folder, "kt_run_next.safetensors"))
    opt.zero_grad()
    nn.functional.mse_loss(model(data["x"]), data["target"]).backward()
    opt.step()
    for name, p in model.state_dict().items():
        close(p, data["next." + name], f"Adam step 4 from kt's checkpoint, {name}")
    print("PASS: PyTorch reads kt's model and resumes kt's Adam")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: check_kt_files.py DIR")
    main(sys.argv[1])

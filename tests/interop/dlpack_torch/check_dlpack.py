"""kt and PyTorch share tensors through DLPack without copying (tests/interop/dlpack_torch).

Run with the interpreter whose torch to test and the directory holding the kt_dlpack module.
Prints PASS, or "skipped: python3-torch" when torch is missing.
"""
import gc
import sys

sys.path.insert(0, sys.argv[1])
try:
    import torch
    import torch.utils.dlpack as dlpack
except ImportError:
    print("skipped: python3-torch is not installed")
    sys.exit(0)
import kt_dlpack as kt

kt.start()
base = kt.allocated()

# kt -> PyTorch: the same memory, writes seen both ways, kt's tensor may go first.
capsule, address = kt.make(6)
t = dlpack.from_dlpack(capsule)
assert t.data_ptr() == address, (t.data_ptr(), address)
assert t.tolist() == [0, 1, 2, 3, 4, 5], t.tolist()
t[0] = 42
assert kt.made_sum() == 42 + 15, kt.made_sum()
kt.drop_made()                     # PyTorch's tensor keeps kt's memory alive
assert kt.allocated() > base
assert t.sum().item() == 57
del t, capsule
gc.collect()
assert kt.allocated() == base, (kt.allocated(), base)   # the deleter gave it back

# An unconsumed capsule frees its tensor too.
capsule, _ = kt.make(4)
kt.drop_made()
del capsule
gc.collect()
assert kt.allocated() == base

# PyTorch -> kt: the same memory, kt's writes seen by PyTorch.
x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
assert kt.take(dlpack.to_dlpack(x)) == x.data_ptr()
kt.scale_taken(2.0)
assert x.tolist() == [[0, 2, 4], [6, 8, 10]], x.tolist()
del x
gc.collect()
kt.scale_taken(0.5)                # kt keeps PyTorch's memory alive
kt.drop_taken()

# What kt refuses, with kt's message, leaving the capsule usable by someone else.
for bad, words in [(torch.arange(6.0).reshape(2, 3).t(), "not row-major contiguous"),
                   (torch.arange(6, dtype=torch.int32), "holds int32, not float32")]:
    capsule = dlpack.to_dlpack(bad)
    try:
        kt.take(capsule)
        raise AssertionError("kt took " + str(bad))
    except RuntimeError as e:
        assert words in str(e), str(e)
    assert dlpack.from_dlpack(capsule).data_ptr() == bad.data_ptr()

kt.stop()
print("PASS: kt and PyTorch %s share tensors through DLPack" % torch.__version__)

#!/usr/bin/env python3
"""Every public differentiable op is in the autocast op-list test.

  scripts/check_autocast_ops.py [ROOT]        (KT_CTAGS=/path/to/ctags to choose the ctags)

Each differentiable op declares its autocast policy (kt/core/impl/autocast_policy.hpp) and an
op that declares none does not compile. What a declaration cannot catch is an op that never
reaches the dispatch, or declares the wrong list: tests/amp/test_autocast.cpp checks each op's
dtype inside a region against PyTorch's lists. This script keeps that test complete: it lists
the public functions of kt's differentiable-op headers with Universal Ctags and fails naming
each one that has no row in the test ("name(" for functions; "h + h", "-h", ... for operators).
"""

import pathlib
import sys

import ctags_json

OP_HEADERS = ["include/kt/autograd/elementwise.hpp", "include/kt/autograd/unary.hpp",
              "include/kt/autograd/reduce.hpp", "include/kt/autograd/shape_ops.hpp",
              "include/kt/autograd/matmul.hpp", "include/kt/functional/*.hpp"]
TEST = "tests/amp/test_autocast.cpp"
# How the test writes an operator's row: (operator, header) -> the row's label start.
OPERATOR_ROWS = {("operator +", "elementwise.hpp"): '"h + ', ("operator -", "elementwise.hpp"): '"h - ',
                 ("operator *", "elementwise.hpp"): '"h * ', ("operator /", "elementwise.hpp"): '"h / ',
                 ("operator -", "unary.hpp"): '"-h"'}


def public_ops(root: pathlib.Path):
    files = sorted(str(p.relative_to(root)) for pattern in OP_HEADERS for p in root.glob(pattern))
    return sorted({(tag["name"], pathlib.Path(tag["path"]).name)
                   for tag in ctags_json.tags(root, "fp", "+aKsZn", files, who="check_autocast_ops")
                   if tag.get("scope") == "kt" and tag.get("scopeKind") == "namespace"})


def main():
    root = ctags_json.repo_root(sys.argv)
    test = (root / TEST).read_text(encoding="utf-8")
    ops = public_ops(root)
    missing = []
    for name, header in ops:
        row = OPERATOR_ROWS.get((name, header), f'"{name}(')
        if name.startswith("operator") and (name, header) not in OPERATOR_ROWS:
            missing.append(f"not in the autocast op-list test: {name} ({header}): add its row to OPERATOR_ROWS "
                           "here and to the test")
        elif row not in test:
            missing.append(f"not in the autocast op-list test: {name} ({header}): no row {row}...\" in {TEST}")
    return ctags_json.verdict(
        missing,
        f"check_autocast_ops: {len(missing)} of {len(ops)} public ops have no row in the autocast op-list test; "
        "add each with the dtype PyTorch's autocast gives it",
        f"check_autocast_ops: all {len(ops)} public differentiable ops are in the autocast op-list test")


if __name__ == "__main__":
    sys.exit(main())

"""Universal Ctags over kt's sources, as JSON tags, and the checks' verdict: what the ctags-based
checks share (check_api_docs.py, check_autocast_ops.py, check_function_length.py)."""

import json
import os
import pathlib
import shutil
import subprocess
import sys


def repo_root(argv) -> pathlib.Path:
    """The repository: the first argument, else the folder above scripts/."""
    return pathlib.Path(argv[1] if len(argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)


def tags(root: pathlib.Path, kinds: str, fields: str, paths, exclude=(), recurse=False, who="ctags"):
    """Each tag of the C++ `kinds` in `paths` (relative to root), with `fields`, as a dict.
    KT_CTAGS chooses the ctags; it must be Universal Ctags."""
    ctags = os.environ.get("KT_CTAGS") or shutil.which("ctags")
    if ctags is None or "Universal Ctags" not in subprocess.run(
        [ctags, "--version"], capture_output=True, text=True
    ).stdout:
        sys.exit(f"{who}: needs Universal Ctags on PATH (Debian: apt-get install universal-ctags)")
    args = [ctags, *(["-R"] if recurse else []), "--languages=C++", "--langmap=C++:+.hpp", f"--kinds-C++={kinds}",
            f"--fields={fields}", "--output-format=json", *[f"--exclude={e}" for e in exclude], "-f", "-", *paths]
    out = subprocess.run(args, cwd=root, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        tag = json.loads(line)
        if tag.get("_type") == "tag":
            yield tag


def verdict(problems, failed: str, passed: str) -> int:
    """Prints each problem, then `failed` when there is one (exit code 1), else `passed` (0)."""
    for problem in problems:
        print(problem)
    print(failed if problems else passed)
    return 1 if problems else 0

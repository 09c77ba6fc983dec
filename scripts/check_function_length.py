#!/usr/bin/env python3
"""Every function in include/kt is at most 60 lines.

  scripts/check_function_length.py [ROOT]        (KT_CTAGS=/path/to/ctags to choose the ctags)

Lists the functions of include/kt (public and impl/, lambdas' bodies counted in the function
that holds them) with Universal Ctags and their extent, and fails naming each one longer than
the limit: a longer function mixes jobs that a name each would explain (a kernel's planning,
packing, edge cases and epilogue, say).
"""

import json
import os
import pathlib
import shutil
import subprocess
import sys

LIMIT = 60


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    ctags = os.environ.get("KT_CTAGS") or shutil.which("ctags")
    if ctags is None or "Universal Ctags" not in subprocess.run(
        [ctags, "--version"], capture_output=True, text=True
    ).stdout:
        sys.exit("check_function_length: needs Universal Ctags on PATH (Debian: apt-get install universal-ctags)")
    out = subprocess.run(
        [ctags, "-R", "--languages=C++", "--langmap=C++:+.hpp", "--kinds-C++=f", "--fields=+ne",
         "--output-format=json", "-f", "-", "include/kt"], cwd=root, capture_output=True, text=True, check=True).stdout
    long, count = [], 0
    for line in out.splitlines():
        tag = json.loads(line)
        if tag.get("_type") != "tag" or "end" not in tag:
            continue
        count += 1
        lines = tag["end"] - tag["line"] + 1
        if lines > LIMIT:
            long.append(f"{tag['path']}:{tag['line']}: {tag['name']} has {lines} lines")
    for entry in sorted(long):
        print(entry)
    if long:
        print(f"check_function_length: {len(long)} of {count} functions are longer than {LIMIT} lines; "
              "split each into functions named for what they do")
        return 1
    print(f"check_function_length: all {count} functions of include/kt have at most {LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())

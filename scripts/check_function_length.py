#!/usr/bin/env python3
"""Every function in include/kt is at most 60 lines.

  scripts/check_function_length.py [ROOT]        (KT_CTAGS=/path/to/ctags to choose the ctags)

Lists the functions of include/kt (public and impl/, lambdas' bodies counted in the function
that holds them) with Universal Ctags and their extent, and fails naming each one longer than
the limit: a longer function mixes jobs that a name each would explain (a kernel's planning,
packing, edge cases and epilogue, say).
"""

import sys

import ctags_json

LIMIT = 60


def main():
    root = ctags_json.repo_root(sys.argv)
    long, count = [], 0
    for tag in ctags_json.tags(root, "f", "+ne", ["include/kt"], recurse=True, who="check_function_length"):
        if "end" not in tag:
            continue
        count += 1
        lines = tag["end"] - tag["line"] + 1
        if lines > LIMIT:
            long.append(f"{tag['path']}:{tag['line']}: {tag['name']} has {lines} lines")
    return ctags_json.verdict(
        sorted(long),
        f"check_function_length: {len(long)} of {count} functions are longer than {LIMIT} lines; "
        "split each into functions named for what they do",
        f"check_function_length: all {count} functions of include/kt have at most {LIMIT} lines")


if __name__ == "__main__":
    sys.exit(main())

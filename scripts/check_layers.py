#!/usr/bin/env python3
"""kt's layers include only the layers below them (docs/architecture.md, "Layers").

    scripts/check_layers.py [REPO_ROOT]

Reads every header under include/kt/<layer>/ and fails, naming the file, the line and both
layers, on an #include of a kt header from a higher layer — so a program that includes
kt/nn/linear.hpp never compiles I/O, data loading or kt::dist. Headers directly under
include/kt/ (kt.hpp, the umbrella) may include anything.
"""
import pathlib
import re
import sys

# Bottom-up, as docs/architecture.md lists them.
LAYERS = ["core", "backend", "tensor", "autograd", "functional", "nn", "optim", "amp", "data",
          "dist", "io", "interop"]
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]kt/([a-z_]+)/')


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    base = root / "include" / "kt"
    rank = {layer: i for i, layer in enumerate(LAYERS)}
    problems = []
    headers = sorted(base.glob("*/**/*.hpp"))
    for header in headers:
        layer = header.relative_to(base).parts[0]
        if layer not in rank:
            problems.append(f"{header.relative_to(root)}: layer '{layer}' is not in scripts/check_layers.py's list")
            continue
        for number, line in enumerate(header.read_text().splitlines(), 1):
            match = INCLUDE.match(line)
            if match and rank.get(match.group(1), -1) > rank[layer]:
                problems.append(f"{header.relative_to(root)}:{number}: {layer}/ includes the higher layer "
                                f"{match.group(1)}/: {line.strip()}")
    for problem in problems:
        print(problem)
    print(f"check_layers: {len(headers)} headers, {len(problems)} upward includes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

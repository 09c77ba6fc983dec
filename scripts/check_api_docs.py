#!/usr/bin/env python3
"""Every public name of kt appears in the docs.

  scripts/check_api_docs.py [ROOT]        (KT_CTAGS=/path/to/ctags to choose the ctags)

Lists the public entry points of include/kt (classes, structs, enums, type aliases and
functions at namespace scope, and the public member functions of those classes; not impl/
folders, not kt::impl, not constructors or operators) with Universal Ctags, and fails naming
each one that neither README.md nor a page of docs/ mentions as a word. The docs' C++ blocks
are compiled snippets (docs/snippets/), so a name shown there is also a name that compiles.

A name may be exempted in scripts/api_docs_allow.txt ("name  # reason", one per line) when
it is public only because C++ needs it to be (a member a kt template calls on user types),
never to hide an undocumented feature.
"""

import pathlib
import re
import sys

import ctags_json

KINDS = "cfsgtup"  # class, function, struct, enum, typedef/alias, union, prototype
HIDDEN_SCOPES = {"impl", "detail", "std"}


def public_names(root: pathlib.Path):
    """(name, path, line) for each public entry point of include/kt."""
    for tag in ctags_json.tags(root, KINDS, "+aKsZn", ["include/kt"], exclude=["*/impl/*"], recurse=True,
                               who="check_api_docs"):
        name, scope = tag["name"], tag.get("scope", "")
        parts = scope.split("::") if scope else []
        if HIDDEN_SCOPES & set(parts) or any(p.startswith("__anon") for p in parts):
            continue
        if name.startswith(("operator", "~", "__anon")) or (parts and name == parts[-1]):
            continue  # operators, destructors, lambdas, constructors
        if tag.get("access") in ("private", "protected"):
            continue
        scope_kind = tag.get("scopeKind", "namespace")
        if scope_kind == "function":
            continue  # local to a function body
        if scope_kind in ("class", "struct") and tag["kind"] in ("typedef", "class", "struct", "enum"):
            continue  # member types (value_type, ...) follow their class
        if "= delete" in tag.get("pattern", ""):
            continue
        yield name, tag["path"], tag.get("line", 0)


def documented_words(root: pathlib.Path):
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    words = set()
    for page in pages:
        words.update(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", page.read_text(encoding="utf-8")))
    return words


def allowed(root: pathlib.Path):
    path = root / "scripts" / "api_docs_allow.txt"
    names = set()
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            entry = line.split("#", 1)
            name = entry[0].strip()
            if not name:
                continue
            if len(entry) < 2 or not entry[1].strip():
                sys.exit(f"check_api_docs: {path}: '{name}' needs a reason after '#'")
            names.add(name)
    return names


def main():
    root = ctags_json.repo_root(sys.argv).resolve()
    words = documented_words(root)
    exempt = allowed(root)
    missing = {}
    total = set()
    for name, path, line in public_names(root):
        total.add(name)
        if name not in words and name not in exempt:
            missing.setdefault(name, f"{path}:{line}")
    problems = [f"check_api_docs: scripts/api_docs_allow.txt names '{name}', which is no longer public"
                for name in sorted(exempt - total)]
    problems += [f"undocumented: {name}  ({where})" for name, where in sorted(missing.items())]
    return ctags_json.verdict(
        problems,
        f"check_api_docs: {len(missing)} of {len(total)} public names are in no page of docs/ or the README; "
        "show each in a snippet or a sentence of the page for its layer",
        f"check_api_docs: all {len(total)} public names appear in the docs")


if __name__ == "__main__":
    sys.exit(main())

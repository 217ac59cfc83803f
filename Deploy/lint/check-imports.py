#!/usr/bin/env python3
"""Compares each target's imports with its dependencies in Package.swift.

Reads `swift package dump-package` (JSON on standard input, or runs it) and every .swift file
of every regular, executable and test target, and reports, one line each:
  - a declared dependency no file of the target imports (an unused edge);
  - an imported module of the package or its dependencies the target does not declare (an
    edge that only works because something else brought the module in).
Exit 0 when there is nothing to report, 1 otherwise. Part of `make lint`.
"""
import json
import os
import re
import subprocess
import sys

# Modules of the toolchain and the system: never declared in Package.swift.
SYSTEM = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Musl", "Darwin",
    "Synchronization", "XCTest", "Testing", "_Concurrency", "os", "Observation", "PackagePlugin",
}
# A product whose module has another name.
PRODUCT_MODULES = {}
# Declared edges that are needed without an import: plugins, and modules a target links for
# another's sake (documented next to the target in Package.swift).
IMPORT_RE = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public\s+|internal\s+|package\s+|private\s+|fileprivate\s+)?import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def manifest():
    if not sys.stdin.isatty():
        data = sys.stdin.read()
        if data.strip():
            return json.loads(data)
    out = subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def target_path(target):
    if target.get("path"):
        return target["path"]
    folder = "Tests" if target["type"] == "test" else "Sources"
    return os.path.join(folder, target["name"])


def imports(path):
    found = set()
    for root, _, files in os.walk(path):
        for name in files:
            if name.endswith(".swift"):
                with open(os.path.join(root, name), encoding="utf-8") as source:
                    text = source.read()
                # Imports inside `#if canImport(...)` blocks still count as imports.
                found.update(IMPORT_RE.findall(text))
    return found


def main():
    package = manifest()
    targets = {t["name"]: t for t in package["targets"]}
    problems = []
    for target in package["targets"]:
        if target["type"] not in ("regular", "executable", "test"):
            continue
        declared = {}
        for dependency in target["dependencies"]:
            if "byName" in dependency:
                name = dependency["byName"][0]
                declared[name] = name
            elif "target" in dependency:
                name = dependency["target"][0]
                declared[name] = name
            elif "product" in dependency:
                product = dependency["product"][0]
                declared[PRODUCT_MODULES.get(product, product)] = product
        used = imports(target_path(target)) - SYSTEM - {target["name"]}
        for module, edge in sorted(declared.items()):
            if module in used:
                continue
            if module in targets and targets[module]["type"] == "plugin":
                continue
            problems.append(f"{target['name']}: depends on {edge} but no file imports {module}")
        for module in sorted(used - set(declared)):
            problems.append(f"{target['name']}: imports {module} without depending on it in Package.swift")
    for line in problems:
        print("check-imports: " + line, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""Rebuild depinfer/data/javascript/node_builtins.json: the module names Node.js provides.

Sources:
- `node -p "require('module').builtinModules"` of the installed Node.js (the runtime's own
  list; it omits the modules that exist only behind the `node:` scheme);
- the Node.js documentation, "Modules: CommonJS modules → Built-in modules with mandatory
  node: prefix" (https://nodejs.org/api/modules.html#built-in-modules-with-mandatory-node-prefix):
  node:sea, node:sqlite, node:test, node:test/reporters.

Run: python scripts/build_node_builtins.py
"""

from __future__ import annotations

import json
import subprocess

# Documented modules reachable only as `node:<name>` (see the docstring's second source).
PREFIX_ONLY = ["sea", "sqlite", "test", "test/reporters"]

from depinfer.data import DATA_DIR  # noqa: E402

OUT = DATA_DIR / "javascript/node_builtins.json"


def main() -> None:
    version = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True)
    listed = subprocess.run(
        ["node", "-p", "JSON.stringify(require('module').builtinModules)"],
        capture_output=True,
        text=True,
        check=True,
    )
    names = sorted(set(json.loads(listed.stdout)))
    data = {
        "source": f"require('module').builtinModules of node {version.stdout.strip()}; "
        "node:-only modules from https://nodejs.org/api/modules.html",
        "builtins": names,
        "prefix_only": sorted(set(PREFIX_ONLY) - set(names)),
    }
    OUT.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(names)} builtins)")


if __name__ == "__main__":
    main()

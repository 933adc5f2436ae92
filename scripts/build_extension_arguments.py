"""Rebuild depinfer/data/python/extension_arguments.json.

The table lists the library calls whose arguments name extension modules by import path,
so the library imports them and the code never does:
- Jinja: `Environment(extensions=[...])` (and its subclasses SandboxedEnvironment,
  ImmutableSandboxedEnvironment, NativeEnvironment) and `Environment.add_extension(...)`
  take "import paths" of extension classes — Jinja's documentation, "Extensions" →
  "Adding Extensions".
- Python-Markdown: `markdown.markdown(text, extensions=[...])`, `markdown.Markdown(
  extensions=[...])` and `markdown.markdownFromFile(extensions=[...])` take extension
  names as "Python dot notation" import paths — Python-Markdown's "Library Reference",
  "extensions".
Only dotted strings are taken (a bare name is an entry point of an installed package,
e.g. Markdown's built-in `toc`).

Run: python scripts/build_extension_arguments.py
"""

from __future__ import annotations

import json

from depinfer.data import DATA_DIR  # noqa: E402

OUT = DATA_DIR / "python/extension_arguments.json"

JINJA = "Jinja's documentation, Extensions → Adding Extensions"
MARKDOWN = "Python-Markdown's Library Reference, extensions"

# callee name (the last segment of the called expression) → keyword arguments naming modules
KEYWORDS = {
    "Environment": (["extensions"], JINJA),
    "SandboxedEnvironment": (["extensions"], JINJA),
    "ImmutableSandboxedEnvironment": (["extensions"], JINJA),
    "NativeEnvironment": (["extensions"], JINJA),
    "markdown": (["extensions"], MARKDOWN),
    "Markdown": (["extensions"], MARKDOWN),
    "markdownFromFile": (["extensions"], MARKDOWN),
}
# method name → its positional arguments name modules
METHODS = {"add_extension": JINJA}


def build() -> dict:
    return {
        "about": "Calls whose arguments name extension modules by dotted import path "
        "(read by depinfer/analyzers/python_strings.py); built by "
        "scripts/build_extension_arguments.py",
        "sources": sorted({s for _, s in KEYWORDS.values()} | set(METHODS.values())),
        "keywords": {name: kws for name, (kws, _) in sorted(KEYWORDS.items())},
        "methods": sorted(METHODS),
    }


if __name__ == "__main__":
    OUT.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")
    print(OUT)

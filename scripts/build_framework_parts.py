"""Rebuild depinfer/data/python/framework_parts.json.

Frameworks that install libraries as parts of themselves and whose own documentation
teaches importing those libraries directly: a project that follows the framework's
documentation imports the part but declares only the framework. Each entry names the
documentation page that shows the direct import:
- FastAPI: "FastAPI is actually a sub-class of Starlette"; its pages on using the request
  directly and on middleware import `starlette.requests.Request`,
  `starlette.middleware.cors` and friends — FastAPI documentation, "Using the Request
  Directly" and "Advanced Middleware".
- Pydantic: constraints from annotated-types, "to make this Pydantic-agnostic"
  (`from annotated_types import Gt`) — Pydantic documentation, "Custom Data Types" →
  "Composing types via Annotated".
- Wagtail: the tutorial's blog models use `modelcluster.fields.ParentalKey`,
  `modelcluster.contrib.taggit.ClusterTaggableManager` and `taggit.models.TaggedItemBase`
  (Wagtail documentation, "Your first Wagtail site"); custom image operations are Willow
  operations (Wagtail documentation, "Custom image filters"); API serializer fields come
  from `rest_framework.fields` (Wagtail documentation, "Wagtail API v2 configuration
  guide"); report filters are `django_filters` filter sets (Wagtail documentation,
  "Adding reports").
With --check, each part is confirmed as an unconditional Requires-Dist of the framework's
newest release (registry metadata) before the table is written.

Run: python scripts/build_framework_parts.py [--check]
"""

from __future__ import annotations

import json
import re
import sys

from depinfer.data import DATA_DIR  # noqa: E402

OUT = DATA_DIR / "python/framework_parts.json"

FRAMEWORKS = {
    "fastapi": (
        ["starlette"],
        'FastAPI documentation, "Using the Request Directly" and "Advanced Middleware"',
    ),
    "pydantic": (
        ["annotated-types"],
        'Pydantic documentation, "Custom Data Types", "Composing types via Annotated"',
    ),
    "wagtail": (
        ["django-modelcluster", "django-taggit", "willow", "djangorestframework", "django-filter"],
        'Wagtail documentation, "Your first Wagtail site", "Custom image filters", '
        '"Wagtail API v2 configuration guide" and "Adding reports"',
    ),
}


def build() -> dict:
    return {
        "about": "Frameworks whose documentation teaches importing libraries they install as "
        "their own parts: a runtime part beside its framework is not written on its own "
        "(read by depinfer/resolvers/python.py); built by scripts/build_framework_parts.py",
        "frameworks": {
            name: {"parts": parts, "source": source}
            for name, (parts, source) in sorted(FRAMEWORKS.items())
        },
    }


def check() -> list[str]:
    from depinfer.model import Ecosystem
    from depinfer.registries import Registries

    registries = Registries(offline=False)
    problems = []
    for name, (parts, _) in FRAMEWORKS.items():
        meta = registries.metadata(Ecosystem.PYPI, name) or {}
        required = set()
        for spec in meta.get("requires_dist") or []:
            head, _, marker = spec.partition(";")
            if "extra" in marker:
                continue
            m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", head)
            if m:
                required.add(re.sub(r"[-_.]+", "-", m.group(1)).lower())
        problems += [f"{name} does not require {p}" for p in parts if p not in required]
    return problems


if __name__ == "__main__":
    if "--check" in sys.argv:
        found = check()
        if found:
            sys.exit("\n".join(found))
    OUT.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")
    print(OUT)

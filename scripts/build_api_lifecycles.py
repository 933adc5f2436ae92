"""Rebuild depinfer/data/python/api_lifecycles.json: when public names appeared in or
disappeared from widely used libraries with breaking majors.

Source: the libraries' own releases. For each listed version the distribution is
installed from the package index (the one pip/uv are configured with) into a scratch
virtual environment, imported, and its public names listed (module attributes and the
attributes of the listed classes). Comparing consecutive versions gives, per dotted name,
the first version that has it ("added") and the first version that no longer has it
("removed"). Nothing is copied from the libraries: only which names exist.

Dependencies of each old release are resolved as they were a month after it
(uv --exclude-newer), so it imports as it did then; names hidden from dir() behind a
module __getattr__ (deprecations) are found by probing every name any release lists.

Libraries too large or too old to install on a local Python (TensorFlow: 1.15 needs
Python <=3.7) are read from their wheels instead, without importing them: each listed
release's wheel is fetched with `pip download --no-deps --only-binary=:all:` (from the
index pip is configured with) into a temporary directory, and the generated API packages
it carries (`tensorflow_core/_api/v1/...` in 1.15, `tensorflow/_api/v2/...` in 2.x) are
parsed with `ast`: every public name a module's `__init__.py` binds (imports, assignments,
`setattr(_current_module, ...)`, minus `del`) is a public name of that module. Package
directories the `__init__.py` does not bind are internals, not public names (TF 2.0 still
ships an empty `tensorflow_core/contrib/`). A module a release hands to another
distribution is read from that distribution's wheel when declared a delegate (tf.keras
from 2.6 on: the newest `keras` release TensorFlow's Requires-Dist allows, what installing
that TensorFlow brings today); otherwise (tf.estimator, tf.summary in 2.0-2.15) its name is
listed but its contents are not, so nothing is claimed about them for that release.
Where the library asks for it, the modules each wheel installs are compared too, and the
outermost module that stops being importable is recorded as removed (tf.examples.tutorials
in 2.0, tensorflow.python.keras.engine.network in 2.4), unless a public name covers it then.
Wheels are deleted as soon as they are read.

Usage: python scripts/build_api_lifecycles.py [--only DIST ...]   (needs uv, pip and network)
"""

from __future__ import annotations

import argparse
import ast
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from packaging.version import Version

from depinfer.data import DATA_DIR  # noqa: E402

OUT = DATA_DIR / "python/api_lifecycles.json"


# dist: (objects to list — modules or module:Class —, versions oldest first)
LIBRARIES: dict[str, tuple[list[str], list[str]]] = {
    "pydantic": (
        ["pydantic", "pydantic:BaseModel", "pydantic.fields"],
        ["1.10.13", "2.0", "2.5.3", "2.10.6"],
    ),
    "numpy": (
        ["numpy", "numpy:ndarray", "numpy.random"],
        ["1.21.6", "1.22.0", "1.24.0", "1.25.0", "1.26.4", "2.0.0", "2.1.0", "2.2.6"],
    ),
    "pandas": (
        ["pandas", "pandas:DataFrame", "pandas:Series", "pandas:Index"],
        ["1.3.5", "1.4.0", "1.5.3", "2.0.0", "2.1.0", "2.2.3"],
    ),
    "sqlalchemy": (
        ["sqlalchemy", "sqlalchemy.orm", "sqlalchemy.ext.declarative", "sqlalchemy.engine:Engine"],
        ["1.3.24", "1.4.0", "1.4.54", "2.0.0", "2.0.36"],
    ),
    "flask": (
        ["flask", "flask:Flask"],
        ["1.1.4", "2.0.0", "2.1.0", "2.2.0", "2.3.0", "3.0.0", "3.1.0"],
    ),
    "werkzeug": (
        ["werkzeug", "werkzeug.urls", "werkzeug.utils", "werkzeug.security"],
        ["1.0.1", "2.0.0", "2.1.0", "2.2.0", "2.3.0", "3.0.0", "3.1.0"],
    ),
    "click": (["click", "click:Context"], ["7.1.2", "8.0.0", "8.1.0", "8.1.8", "8.2.0"]),
    "marshmallow": (
        ["marshmallow", "marshmallow.fields", "marshmallow:Schema"],
        ["2.21.0", "3.0.0", "3.13.0", "3.20.1", "3.26.1", "4.0.0"],
    ),
    "attrs": (["attr", "attrs"], ["19.3.0", "20.1.0", "21.3.0", "22.1.0", "23.1.0", "25.1.0"]),
    "scikit-learn": (
        [
            "sklearn",
            "sklearn.metrics",
            "sklearn.model_selection",
            "sklearn.preprocessing",
            "sklearn.utils",
            "sklearn.datasets",
        ],
        ["1.0.2", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.1"],
    ),
    "django": (
        [
            "django.utils.encoding",
            "django.utils.translation",
            "django.conf.urls",
            "django.urls",
            "django.db.models",
            "django.utils.timezone",
        ],
        ["3.2.25", "4.0", "4.1", "4.2", "5.0", "5.1.4"],
    ),
    "redis": (
        ["redis", "redis:Redis", "redis.asyncio"],
        ["3.5.3", "4.0.0", "4.2.0", "4.6.0", "5.0.0", "5.2.1"],
    ),
    "httpx": (
        ["httpx", "httpx:Client", "httpx:AsyncClient"],
        ["0.18.2", "0.23.0", "0.24.0", "0.25.0", "0.26.0", "0.27.0", "0.28.0"],
    ),
    "jinja2": (["jinja2", "jinja2.utils", "jinja2.filters"], ["2.11.3", "3.0.0", "3.1.0", "3.1.4"]),
    "markupsafe": (["markupsafe"], ["2.0.1", "2.1.0", "3.0.0"]),
}

# Names no release lists in dir() (served by a module __getattr__ while deprecated), probed
# by name. Source: NumPy 1.20.0 release notes, "Using the aliases of builtin types like
# np.int is deprecated"; NumPy 1.24.0 release notes, "expired deprecations".
PROBE: dict[str, list[str]] = {
    "numpy": [
        f"numpy.{n}"
        for n in ("float", "int", "bool", "object", "str", "long", "unicode", "complex")
    ],
}


@dataclass(frozen=True)
class WheelLibrary:
    """A library read from its wheels rather than imported."""

    dists: list[str]  # distributions to fetch, the first that has a wheel wins
    objects: list[str]  # modules to list, by their public dotted names
    versions: list[str]  # oldest first
    # public top-level name -> package directories it may live in, in order
    roots: dict[str, list[str]] = field(default_factory=dict)
    # public name -> (distribution a release hands it to, {its major: modules serving it,
    # first present wins}); that distribution's version is the newest the release's
    # Requires-Dist allows
    delegates: dict[str, tuple[str, dict[int, list[str]]]] = field(default_factory=dict)
    # also record where importable modules disappear (`from tensorflow.examples.tutorials
    # .mnist import input_data` works in 1.x only), see module_removals
    modules: bool = False


# TensorFlow: 1.15 is the last 1.x (tf.Session, tf.placeholder, tf.contrib at the top
# level); 2.0 drops them (tf.compat.v1 keeps them); 2.16 moves tf.keras to Keras 3 and drops
# tf.estimator. 1.15 and 2.0 ship the code as `tensorflow_core` behind a `tensorflow` shim.
# From 2.6 tf.keras is the `keras` distribution: keras.api._v2.keras for Keras 2 and
# keras._tf_keras.keras for Keras 3 (the modules tensorflow/__init__.py loads it from).
WHEELS: dict[str, WheelLibrary] = {
    "tensorflow": WheelLibrary(
        dists=["tensorflow-cpu", "tensorflow"],
        objects=[
            "tensorflow",
            "tensorflow.compat.v1",
            "tensorflow.app",
            "tensorflow.config",
            "tensorflow.data",
            "tensorflow.distribute",
            "tensorflow.experimental",
            "tensorflow.gfile",
            "tensorflow.image",
            "tensorflow.initializers",
            "tensorflow.io",
            "tensorflow.io.gfile",
            "tensorflow.layers",
            "tensorflow.logging",
            "tensorflow.losses",
            "tensorflow.math",
            "tensorflow.metrics",
            "tensorflow.nn",
            "tensorflow.optimizers",
            "tensorflow.random",
            "tensorflow.saved_model",
            "tensorflow.summary",
            "tensorflow.train",
            "tensorflow.keras",
            "tensorflow.keras.activations",
            "tensorflow.keras.applications",
            "tensorflow.keras.backend",
            "tensorflow.keras.callbacks",
            "tensorflow.keras.datasets",
            "tensorflow.keras.initializers",
            "tensorflow.keras.layers",
            "tensorflow.keras.layers.experimental",
            "tensorflow.keras.layers.experimental.preprocessing",
            "tensorflow.keras.losses",
            "tensorflow.keras.metrics",
            "tensorflow.keras.models",
            "tensorflow.keras.optimizers",
            "tensorflow.keras.optimizers.legacy",
            "tensorflow.keras.optimizers.schedules",
            "tensorflow.keras.preprocessing",
            "tensorflow.keras.preprocessing.image",
            "tensorflow.keras.preprocessing.sequence",
            "tensorflow.keras.preprocessing.text",
            "tensorflow.keras.regularizers",
            "tensorflow.keras.utils",
        ],
        versions=["1.15.5", "2.0.0", "2.4.0", "2.8.0", "2.12.0", "2.15.0", "2.16.1", "2.21.0"],
        roots={"tensorflow": ["tensorflow_core", "tensorflow"]},
        modules=True,
        delegates={
            f"tensorflow.{sub}": (
                "keras",
                {
                    2: [f"keras.api._v2.keras{tail}"],
                    3: [f"keras._tf_keras.keras{tail}", f"keras.api._tf_keras.keras{tail}"],
                },
            )
            # tf.keras, and the tf.losses/metrics/initializers/optimizers aliases of its
            # parts that TensorFlow 2 loads from Keras
            for sub, tail in [
                ("keras", ""),
                ("losses", ".losses"),
                ("metrics", ".metrics"),
                ("initializers", ".initializers"),
                ("optimizers", ".optimizers"),
            ]
        },
    ),
}

# wheel tags tried when fetching (the API packages are the same on every platform)
WHEEL_PYTHONS = ["3.10", "3.7", "3.8", "3.11", "3.12"]
WHEEL_PLATFORMS = [
    "manylinux2010_x86_64",
    "manylinux2014_x86_64",
    "manylinux_2_17_x86_64",
    "manylinux_2_27_x86_64",
    "manylinux_2_28_x86_64",
]


LISTER = r"""
import importlib, json, sys, warnings
warnings.simplefilter("ignore")
probe = json.loads(sys.stdin.read() or "[]")
out = set()
for i, spec in enumerate(sys.argv[1:]):
    mod, _, cls = spec.partition(":")
    try:
        obj = importlib.import_module(mod)
        if cls:
            obj = getattr(obj, cls)
    except Exception:
        if i == 0:
            sys.exit(3)  # the library itself does not import on this Python
        continue
    prefix = mod + ("." + cls if cls else "")
    out.update(prefix + "." + n for n in dir(obj) if not n.startswith("_"))
    if not cls:
        out.add(mod)
    # names other releases list: present here too when reachable (module __getattr__
    # keeps deprecated names out of dir(), e.g. numpy.float before its removal)
    for name in probe:
        head, _, attr = name.rpartition(".")
        if head == prefix and attr and name not in out:
            try:
                getattr(obj, attr)
                out.add(name)
            except Exception:
                pass
print(json.dumps(sorted(out)))
"""


def pythons() -> list[str]:
    """Local interpreters, newest first (older library releases need older Pythons)."""

    def minor(path: str) -> int:
        m = re.search(r"3\.(\d+)", path)
        return int(m.group(1)) if m else 0

    found = sorted(
        glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3")), key=minor, reverse=True
    )
    found = [p for p in found if 8 <= minor(p) <= 12] + [sys.executable]
    return list(dict.fromkeys(found))


def release_dates(dist: str) -> dict[str, datetime]:
    """Upload dates per version from the configured index (depinfer's own PyPI client)."""
    sys.path.insert(0, str(Path(__file__).parents[1]))
    from depinfer.model import Ecosystem
    from depinfer.registries import Registries

    return {
        v.version: v.published for v in Registries().versions(Ecosystem.PYPI, dist) if v.published
    }


def install(
    dist: str, version: str, when: datetime | None, objects: list[str], workdir: Path
) -> str | None:
    """A venv with `dist==version` and its dependencies as they were a month after that
    release (so an old release gets the dependencies it was made for)."""
    for py in pythons():
        venv = workdir / f"{dist}-{version}"
        shutil.rmtree(venv, ignore_errors=True)
        if subprocess.run(
            ["uv", "venv", "-q", "--python", py, str(venv)], capture_output=True
        ).returncode:
            continue
        vpy = str(venv / "bin" / "python")
        cmd = [
            "uv",
            "pip",
            "install",
            "-q",
            "--python",
            vpy,
            "--only-binary",
            ":all:",
            f"{dist}=={version}",
        ]
        if when is not None:
            cmd += ["--exclude-newer", (when + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")]
        if subprocess.run(cmd, capture_output=True, text=True).returncode:
            continue
        if subprocess.run(
            [vpy, "-c", LISTER, objects[0]], input="[]", capture_output=True, text=True
        ).returncode:
            continue
        print(f"  {dist} {version}: installed with {py}", file=sys.stderr)
        return vpy
    print(
        f"  {dist} {version}: could not be installed and imported on any local Python; skipped",
        file=sys.stderr,
    )
    return None


def names_of(vpy: str, objects: list[str], probe: list[str]) -> list[str]:
    out = subprocess.run(
        [vpy, "-c", LISTER, *objects],
        input=json.dumps(probe),
        capture_output=True,
        text=True,
        timeout=600,
    )
    return json.loads(out.stdout) if out.returncode == 0 else []


def fetch_wheel(dists: list[str], version: str, dest: Path) -> Path | None:
    """The first wheel of `version` any of `dists` publishes for a tried Python tag."""
    for dist in dists:
        for py in WHEEL_PYTHONS:
            cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps"]
            cmd += ["--only-binary", ":all:", "--python-version", py, "-d", str(dest)]
            for platform in WHEEL_PLATFORMS:
                cmd += ["--platform", platform]
            if subprocess.run([*cmd, f"{dist}=={version}"], capture_output=True).returncode:
                continue
            found = sorted(dest.glob("*.whl"))
            if found:
                print(f"  {dist} {version}: wheel {found[0].name}", file=sys.stderr)
                return found[0]
    print(f"  {dists[0]} {version}: no wheel could be fetched; skipped", file=sys.stderr)
    return None


def module_bindings(source: str, package: str = "") -> dict[str, str | None]:
    """Names a module's top level binds, in order: name → the module or object it was
    imported from (None for assignments; `_current_module.a = ...` binds "a" too).
    `package` resolves relative imports (`from . _api.v2 import math` in TF 2.0)."""
    bound: dict[str, str | None] = {}

    def target(node: ast.expr) -> str | None:
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name):
            if not parts:
                return node.id
            if node.id == "_current_module" and len(parts) == 1:
                return parts[0]
        return None

    def alias_of(node: ast.expr) -> str | None:
        """`losses = keras.losses` (TF 2.0): the module keras was imported from + .losses."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if parts and isinstance(node, ast.Name) and bound.get(node.id):
            return ".".join([bound[node.id] or "", *reversed(parts)])
        return None

    def walk(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.ImportFrom):
                if node.module == "__future__":
                    continue
                source_module = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source_module = ".".join(p for p in [*parts, source_module] if p)
                for alias in node.names:
                    if alias.name != "*" and source_module:
                        bound[alias.asname or alias.name] = f"{source_module}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        bound[alias.asname] = alias.name
                    else:
                        head = alias.name.split(".")[0]
                        bound[head] = head
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                value = alias_of(node.value) if node.value is not None else None
                for t in targets:
                    for item in t.elts if isinstance(t, ast.Tuple) else [t]:
                        name = target(item)
                        if name:
                            bound[name] = value
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                bound[node.name] = None
            elif isinstance(node, ast.Delete):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        bound.pop(t.id, None)
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                call = node.value
                if (
                    isinstance(call.func, ast.Name)
                    and call.func.id == "setattr"
                    and len(call.args) == 3
                    and isinstance(call.args[0], ast.Name)
                    and call.args[0].id == "_current_module"
                    and isinstance(call.args[1], ast.Constant)
                    and isinstance(call.args[1].value, str)
                ):
                    value = call.args[2]
                    origin = bound.get(value.id) if isinstance(value, ast.Name) else None
                    bound[call.args[1].value] = origin or alias_of(value)
            elif isinstance(node, ast.If | ast.With | ast.For | ast.While):
                walk(node.body)
                walk(getattr(node, "orelse", []))
            elif isinstance(node, ast.Try):
                walk(node.body)
                for handler in node.handlers:
                    walk(handler.body)
                walk(node.orelse)
                walk(node.finalbody)

    walk(ast.parse(source).body)
    return bound


def wheel_listing(
    wheels: list[Path],
    objects: list[str],
    roots: dict[str, list[str]] | None = None,
    mounts: dict[str, str] | None = None,
) -> dict[str, set[str] | None]:
    """Public dotted names per object, read from the wheels' generated API packages; None
    when the object lives in a distribution not given (its contents are unknown here).
    `mounts` serves a public name from another module (tensorflow.keras from keras's)."""
    roots = roots or {}
    mounts = mounts or {}
    files: dict[str, zipfile.ZipFile] = {}
    opened = [zipfile.ZipFile(w) for w in wheels]
    try:
        for zf in opened:
            for member in zf.namelist():
                files.setdefault(member, zf)
        parsed: dict[str, dict[str, str | None]] = {}

        def module_file(dotted: str) -> str | None:
            head, _, rest = dotted.partition(".")
            for root in roots.get(head, [head]):
                base = "/".join([root, *rest.split(".")]) if rest else root
                for candidate in (f"{base}/__init__.py", f"{base}.py"):
                    if candidate in files:
                        return candidate
            return None

        def bindings(path: str) -> dict[str, str | None]:
            if path not in parsed:
                text = files[path].read(path).decode("utf-8", errors="replace")
                package = path.removesuffix("/__init__.py").removesuffix(".py")
                if not path.endswith("/__init__.py"):
                    package = package.rpartition("/")[0]
                found = module_bindings(text, package.replace("/", "."))
                parsed[path] = {
                    n: o
                    for n, o in found.items()
                    if not any(p.startswith("_") for p in n.split("."))
                }
            return parsed[path]

        out: dict[str, set[str] | None] = {}
        for obj in objects:
            mount = max(
                (m for m in mounts if obj == m or obj.startswith(m + ".")), key=len, default=None
            )
            if mount is not None:
                path = module_file(mounts[mount])
                parts = obj[len(mount) :].split(".")[1:]
            else:
                head, *parts = obj.split(".")
                path = module_file(head)
            names: set[str] | None = set()
            for part in parts:
                if path is None:
                    names = None  # an ancestor lives elsewhere
                    break
                where = bindings(path)
                if part not in where:
                    break  # absent in this release
                origin = where[part]
                path = module_file(origin) if origin else None
                if path is None:
                    names = None
                    break
            else:
                if path is None:
                    names = None
                else:
                    names = {obj} | {f"{obj}.{n}" for n in bindings(path)}
            out[obj] = names
    finally:
        for zf in opened:
            zf.close()
    return out


def delegate_wheel(wheel: Path, dist: str, dest: Path) -> tuple[Path, Version] | None:
    """The wheel of `dist` a release hands part of its API to: the newest version its
    Requires-Dist allows, which is what installing that release today brings (TF 2.16
    allows any Keras 3; Keras 3.3 dropped tf.keras.losses.mean_squared_error that 3.1 had,
    so the name is gone for whoever installs TF 2.16 now)."""
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    with zipfile.ZipFile(wheel) as zf:
        meta = next((n for n in zf.namelist() if n.endswith(".dist-info/METADATA")), None)
        text = zf.read(meta).decode("utf-8", errors="replace") if meta else ""
    spec = None
    for line in text.splitlines():
        if line.startswith("Requires-Dist:"):
            try:
                req = Requirement(line.partition(":")[2].strip())
            except InvalidRequirement:
                continue
            if canonicalize_name(req.name) == canonicalize_name(dist) and not req.marker:
                spec = req.specifier
    if spec is None:
        return None
    fits = sorted(
        Version(v) for v in release_dates(dist) if spec.contains(v) and not Version(v).is_prerelease
    )
    if not fits:
        return None
    version = fits[-1]
    dest.mkdir(parents=True, exist_ok=True)
    found = fetch_wheel([dist], str(version), dest)
    return (found, version) if found else None


def wheel_modules(wheel: Path, roots: dict[str, list[str]]) -> set[str]:
    """Dotted names of the modules and packages a wheel installs under the library's
    public top-level names (Python files and extension modules; private parts skipped)."""
    public = {d: top for top, dirs in roots.items() for d in dirs}
    with zipfile.ZipFile(wheel) as zf:
        members = zf.namelist()
    core = {d for d in public if d not in public.values() and f"{d}/__init__.py" in members}
    out: set[str] = set()
    for member in members:
        parts = member.split("/")
        top = parts[0]
        if top not in public or (core and top not in core):
            continue  # 1.15/2.0: `tensorflow/` is only a shim over `tensorflow_core/`
        name = parts[-1]
        if name.endswith(".py"):
            stem = name[:-3]
        elif name.endswith(".so"):
            stem = name.split(".")[0]
        else:
            continue
        dotted = [public.get(top, top), *parts[1:-1]]
        if stem != "__init__":
            dotted.append(stem)
        if not any(p.startswith("_") or not p.isidentifier() for p in dotted[1:]):
            out.add(".".join(dotted))
    return out


def module_removals(
    modules: list[tuple[str, set[str]]],
    listed: list[tuple[str, set[str]]],
    removed: dict[str, str],
) -> dict[str, str]:
    """Outermost modules that stop being importable, with the release they go in. A module
    under a name that is public API in that release is left out (tf.keras's own package
    went away in 2.8 when tf.keras became the keras distribution's, yet
    `tensorflow.keras.layers` still imports), and so is one whose enclosing name is already
    recorded as removed by then."""
    public = dict(listed)
    _, gone = lifecycle(modules)
    out: dict[str, str] = {}
    for name in sorted(gone, key=lambda n: n.count(".")):
        version = gone[name]
        parts = name.split(".")
        prefixes = [".".join(parts[:end]) for end in range(2, len(parts) + 1)]
        if any(p in public.get(version, set()) for p in prefixes):
            continue
        earlier = [p for p in prefixes if p in out or p in removed]
        if any(Version((out | removed)[p]) <= Version(version) for p in earlier):
            continue
        out[name] = version
    return out


def wheel_versions(dist: str) -> tuple[list[tuple[str, set[str]]], list[tuple[str, set[str]]]]:
    """(version, public names) per listed release of a library read from its wheels.

    An object a release hands to another distribution is read from that distribution's
    wheel when the library declares it a delegate (tf.keras from 2.6 on). Otherwise it is
    unknown there and takes its names from the next listed release that ships it itself,
    else from the last one before: TF 2.0-2.15 hand tf.summary to TensorBoard and 2.16 ships
    the same API itself, so 1.x's tf.summary.FileWriter is gone from 2.0, not from 2.16."""
    lib = WHEELS[dist]
    per_version: list[tuple[str, dict[str, set[str] | None]]] = []
    modules: list[tuple[str, set[str]]] = []
    for version in lib.versions:
        with tempfile.TemporaryDirectory() as tmp:
            wheel = fetch_wheel(lib.dists, version, Path(tmp))
            if wheel is None:
                continue
            if lib.modules:
                modules.append((version, wheel_modules(wheel, lib.roots)))
            listing = wheel_listing([wheel], lib.objects, lib.roots)
            fetched: dict[str, tuple[Path, Version] | None] = {}
            for prefix, (other, serving) in lib.delegates.items():
                under = [o for o in lib.objects if o == prefix or o.startswith(prefix + ".")]
                if not under or listing.get(prefix, set()) is not None:
                    continue
                if other not in fetched:
                    fetched[other] = delegate_wheel(wheel, other, Path(tmp) / other)
                got = fetched[other]
                if got is None:
                    continue
                other_wheel, other_version = got
                with zipfile.ZipFile(other_wheel) as zf:
                    members = set(zf.namelist())
                mount = next(
                    (
                        m
                        for m in serving.get(other_version.major, [])
                        if f"{m.replace('.', '/')}/__init__.py" in members
                    ),
                    None,
                )
                if mount is None:
                    continue
                print(f"  {dist} {version}: {prefix} from {other} {other_version}", file=sys.stderr)
                listing.update(wheel_listing([other_wheel], under, mounts={prefix: mount}))
            per_version.append((version, listing))
    for obj in lib.objects:
        known = [i for i, (_, listing) in enumerate(per_version) if listing[obj] is not None]
        for i, (_, listing) in enumerate(per_version):
            if listing[obj] is None and known:
                nearest = min((k for k in known if k > i), default=max(known))
                listing[obj] = per_version[nearest][1][obj]
    listed = []
    for version, listing in per_version:
        names = set().union(*(n for n in listing.values() if n is not None))
        print(f"  {dist} {version}: {len(names)} names", file=sys.stderr)
        listed.append((version, names))
    return listed, modules


def lifecycle(listed: list[tuple[str, set[str]]]) -> tuple[dict[str, str], dict[str, str]]:
    """(added, removed): per name, the first listed version having it / no longer having it."""
    added: dict[str, str] = {}
    removed: dict[str, str] = {}
    seen: set[str] = set(listed[0][1]) if listed else set()
    for (_, prev), (ver, cur) in zip(listed, listed[1:], strict=False):
        for name in cur - prev:
            if name not in seen:
                added.setdefault(name, ver)
            removed.pop(name, None)  # came back: an earlier release had it too, no bound
        for name in prev - cur:
            removed.setdefault(name, ver)
        seen |= cur
    return added, removed


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    data = json.loads(OUT.read_text()) if OUT.exists() else {}
    for dist, (objects, versions) in LIBRARIES.items():
        if args.only and dist not in args.only:
            continue
        dates = release_dates(dist)
        with tempfile.TemporaryDirectory() as tmp:
            envs = [(v, install(dist, v, dates.get(v), objects, Path(tmp))) for v in versions]
            envs = [(v, py) for v, py in envs if py]
            first = {v: set(names_of(py, objects, [])) for v, py in envs}
            union = sorted(set().union(*first.values(), PROBE.get(dist, []))) if first else []
            listed = [(v, first[v] | set(names_of(py, objects, union))) for v, py in envs]
        added, removed = lifecycle(listed)
        data[dist] = {
            "objects": objects,
            "versions": [v for v, _ in listed],
            "added": dict(sorted(added.items())),
            "removed": dict(sorted(removed.items())),
            "source": "public names listed from each release installed from the package index",
        }
    for dist, lib in WHEELS.items():
        if args.only and dist not in args.only:
            continue
        wheel_listed, modules = wheel_versions(dist)
        added, removed = lifecycle(wheel_listed)
        removed |= module_removals(modules, wheel_listed, removed)
        data[dist] = {
            "objects": lib.objects,
            "versions": [v for v, _ in wheel_listed],
            "added": dict(sorted(added.items())),
            "removed": dict(sorted(removed.items())),
            "source": "public names read from the generated API packages of each release's "
            "wheel from the package index",
        }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

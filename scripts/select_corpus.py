"""Build depinfer's evaluation corpus by the mechanical rule in corpus/README.md.

Steps (each rerunnable; nothing here is a judgement about a particular repository):

  candidates  corpus/queries/NN.txt (what `find_files(path=P)` returned, one query a file,
              in the fixed order of the rule) → corpus/candidates.jsonl
  order       the fetch order: per language group, candidates by sha256 of the lowercase
              "owner/name", without excluded and dev-set names; prints the next ones not
              yet extracted (`--next N --group G`)
  extract     for every candidate whose snapshot is in the mirror directory: resolve the
              candidate's commit, write its tree to <trees>/_staging/<owner>__<name>
  select      decide each extracted candidate: language, masked build files, source files,
              CI test command, date → corpus/<language>.jsonl and corpus/rejected.jsonl;
              moves kept trees to <trees>/<language>/<id>
  trees       on a machine that has none of them: write each kept instance's tree
              (`--lang L`, `--split S`) at its recorded commit to <trees>/<language>/<id>,
              from the snapshots `fetch` brought in; prints the instances still unfetched

Usage: PYTHONPATH=. python scripts/select_corpus.py {candidates|order|extract|select|trees} [...]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
QUERIES = CORPUS / "queries"
BENCH = Path("/work/shared/benchmark")
MIRROR = Path("/work/.mirror")
TREES = Path("/work/corpus-repos")
EXTRACT_HELPER = ROOT / "scripts" / "extract_tree.py"  # was /work/extract.py (slow)

# language group of each query (for the fetch order only; the language is decided later)
GROUPS = {
    "python": (
        "noxfile.py",
        "tox.ini",
        ".readthedocs.yaml",
        "tests/conftest.py",
        ".github/workflows/tests.yml",
        ".github/workflows/python-package.yml",
        ".github/workflows/python-app.yml",
        ".github/workflows/pytest.yml",
        # session 10 (2026-11-27): queries 21-24, see corpus/README.md step 1
        ".github/workflows/python-test.yml",
        ".github/workflows/python-tests.yml",
        "pytest.ini",
        "requirements-dev.txt",
        # session 11 (2026-11-27): queries 25-27, see corpus/README.md step 1
        ".github/workflows/pythonpackage.yml",
        ".github/workflows/pythonapp.yml",
        ".github/workflows/python-ci.yml",
        # session 13 (2026-11-28): queries 31-33, see corpus/README.md step 1
        ".github/workflows/python.yml",
        ".github/workflows/python-publish.yml",
        ".github/workflows/python-package-conda.yml",
        # session 14 (2026-11-28): queries 37-40, see corpus/README.md step 1
        ".github/workflows/python-package.yaml",
        ".github/workflows/python-test.yaml",
        ".github/workflows/python-ci.yaml",
        ".github/workflows/tox.yml",
    ),
    "rust": (
        "Cargo.lock",
        "rustfmt.toml",
        "deny.toml",
        ".github/workflows/rust.yml",
        # session 12 (2026-11-28): queries 29-30, see corpus/README.md step 1
        ".config/nextest.toml",
        "clippy.toml",
        # session 15 (2026-11-28): queries 45-48, see corpus/README.md step 1
        ".github/workflows/rust.yaml",
        ".github/workflows/rust-ci.yml",
        ".github/workflows/cargo.yml",
        ".github/workflows/rust-tests.yml",
    ),
    "csharp": (
        "Directory.Build.props",
        "global.json",
        "Directory.Packages.props",
        ".github/workflows/dotnet.yml",
        ".github/workflows/dotnet-core.yml",  # session 11: query 28
        # session 13 (2026-11-28): queries 34-36, see corpus/README.md step 1
        ".github/workflows/dotnet-desktop.yml",
        ".github/workflows/dotnetcore.yml",
        ".github/workflows/dotnet-test.yml",
    ),
    "javascript": (
        ".changeset/config.json",
        "jest.config.js",
        "vitest.config.ts",
        ".github/workflows/node.js.yml",
        # session 15 (2026-11-28): queries 41-44, see corpus/README.md step 1
        ".github/workflows/nodejs.yml",
        ".github/workflows/node.yml",
        ".github/workflows/npm-publish.yml",
        ".github/workflows/node.js.yaml",
    ),
}
LANGUAGES = ("python", "javascript", "rust", "csharp")
SOURCE_EXT = {
    "python": (".py",),
    "javascript": (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"),
    "rust": (".rs",),
    "csharp": (".cs",),
}
SKIP_DIRS = {".git", "node_modules", "target", "bin", "obj", ".venv", "venv", "site-packages"}
# Python: manifests in example/doc/test folders describe other projects (as in the dev set)
PY_SKIP_PARTS = {
    "examples",
    "example",
    "docs",
    "doc",
    "tests",
    "test",
    "samples",
    "sample",
    "benchmarks",
    "vendor",
    "third_party",
    "templates",
    "template",
}
MAX_FILES = 30000  # larger trees (data dumps, monorepo mirrors) are rejected by size
MIN_DEPS = 2
MIN_SOURCES = 5
# step 3b (session 10): `find_files(repo=R, under=".github/workflows")` listed no .yml/.yaml
PREFILTER_REASON = "pre-filter: no GitHub Actions workflow file in the index listing"


def name_sha(repo: str) -> str:
    return hashlib.sha256(repo.lower().encode()).hexdigest()


def split_of(repo: str) -> str:
    return "train" if int(name_sha(repo)[:8], 16) % 2 == 0 else "validation"


def repo_id(repo: str) -> str:
    return repo.replace("/", "__")


def mirror_dir(repo: str) -> Path:
    """The snapshot's git directory (`fetch` gives either a bare `repo` or `repo/.git`)."""
    base = MIRROR / repo.replace("/", "+") / "repo"
    return base / ".git" if (base / ".git").is_dir() else base


# ---------------------------------------------------------------- candidates


def read_queries() -> list[dict]:
    rows = []
    for n, path in enumerate(sorted(QUERIES.glob("*.txt")), 1):
        lines = path.read_text(encoding="utf-8").splitlines()
        query = lines[0].lstrip("# ").strip()
        for line in lines[1:]:
            if line.strip():
                repo, commit = line.split()
                rows.append({"query": n, "path": query, "repo": repo, "commit": commit})
    return rows


def cmd_candidates(_args: argparse.Namespace) -> None:
    rows = read_queries()
    with (CORPUS / "candidates.jsonl").open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")
    print(f"{len(rows)} rows, {len({r['repo'].lower() for r in rows})} repositories")


def load_candidates() -> list[dict]:
    path = CORPUS / "candidates.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def excluded_names() -> tuple[set[str], set[str]]:
    shas = set((BENCH / "excluded.sha256").read_text().split())
    dev = set()
    for path in BENCH.glob("dev-*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                dev.add(json.loads(line)["repo"].lower())
    return shas, dev


def group_of(path: str) -> str:
    for group, paths in GROUPS.items():
        if path in paths:
            return group
    raise SystemExit(f"query path {path} has no language group in GROUPS")


def ordered() -> list[dict]:
    """One entry per repository: its group (first query naming it), its rows in query order,
    and whether the rule drops it before fetching; sorted by sha256 of the lowercase name."""
    shas, dev = excluded_names()
    by_repo: dict[str, dict] = {}
    for row in load_candidates():
        key = row["repo"].lower()
        entry = by_repo.setdefault(
            key, {"repo": row["repo"], "group": group_of(row["path"]), "rows": []}
        )
        entry["rows"].append(row)
    out = []
    for key, entry in by_repo.items():
        entry["sha"] = name_sha(key)
        entry["drop"] = (
            "excluded.sha256" if entry["sha"] in shas else "dev set" if key in dev else None
        )
        out.append(entry)
    out.sort(key=lambda e: e["sha"])
    return out


def cmd_order(args: argparse.Namespace) -> None:
    done = {p.name.lower() for p in (TREES / "_staging").glob("*")} if TREES.exists() else set()
    for lang in LANGUAGES:
        if (TREES / lang).is_dir():
            done |= {p.name.lower() for p in (TREES / lang).iterdir()}
    done |= {json.loads(line)["id"].lower() for line in _lines(CORPUS / "rejected.jsonl")}
    taken = 0
    for entry in ordered():
        if entry["drop"] or entry["group"] != args.group:
            continue
        if repo_id(entry["repo"]).lower() in done:
            continue
        if args.skip_mirrored and mirror_dir(entry["repo"]).is_dir():
            continue
        has_wf = any(r["path"].startswith(".github/workflows/") for r in entry["rows"])
        print(entry["repo"], "" if has_wf or not args.mark else "?")
        taken += 1
        if taken >= args.next:
            break


def _lines(path: Path) -> list[str]:
    return (
        [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln] if path.exists() else []
    )


# ---------------------------------------------------------------- extract


def git(gitdir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "--git-dir", str(gitdir), *args], capture_output=True, text=True)


def resolve_commit(gitdir: Path, rows: list[dict]) -> str | None:
    """Of the candidate's commits (one per query row) that the snapshot holds, the newest by
    committer date (ties: the earlier query), as a full hash."""
    best: tuple[int, str] | None = None
    for row in rows:
        r = git(gitdir, "log", "-1", "--format=%H %ct", row["commit"], "--")
        if r.returncode != 0 or not r.stdout.strip():
            continue
        sha, stamp = r.stdout.split()
        if best is None or int(stamp) > best[0]:
            best = (int(stamp), sha)
    return best[1] if best else None


def extract_tree(gitdir: Path, commit: str, dest: Path) -> None:
    dest.mkdir(parents=True)
    archive = subprocess.run(
        [
            "bash",
            "-c",
            f"set -o pipefail; git --git-dir '{gitdir}' archive {commit} | tar -x -C '{dest}'",
        ],
        capture_output=True,
    )
    if archive.returncode != 0:  # a blob the snapshot lacks: take what is there
        shutil.rmtree(dest)
        dest.mkdir(parents=True)
        subprocess.run(
            [sys.executable, str(EXTRACT_HELPER), str(gitdir), commit, str(dest)], check=True
        )


def cmd_extract(args: argparse.Namespace) -> None:
    staging = TREES / "_staging"
    staging.mkdir(parents=True, exist_ok=True)
    state = _state()
    # session 12: only snapshots whose `fetch` has returned (others may still be copying in)
    only = {r.lower() for r in _lines(Path(args.only))} if args.only else None
    for entry in ordered():
        rid = repo_id(entry["repo"])
        gitdir = mirror_dir(entry["repo"])
        if entry["drop"] or rid in state or not gitdir.is_dir():
            continue
        if only is not None and entry["repo"].lower() not in only:
            continue
        if any((TREES / lang / rid).exists() for lang in LANGUAGES):
            continue
        commit = resolve_commit(gitdir, entry["rows"])
        if commit is None:  # the index saw a commit the snapshot no longer has: its HEAD
            head = git(gitdir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
            commit = head.stdout.strip() if head.returncode == 0 else None
        if commit is None:
            _reject(entry["repo"], "no commit in the snapshot")
            continue
        dest = staging / rid
        if dest.exists():
            continue
        extract_tree(gitdir, commit, dest)
        date = git(gitdir, "log", "-1", "--format=%cI", commit).stdout.strip()
        (staging / f"{rid}.meta.json").write_text(
            json.dumps({"repo": entry["repo"], "commit": commit, "date": date})
        )
        print("extracted", rid, commit[:10])


def cmd_trees(args: argparse.Namespace) -> None:
    """Lay kept instances' trees again (a new machine keeps neither trees nor snapshots).

    The commit is the one the corpus recorded, never re-resolved: the benchmark's figures
    are about that tree."""
    missing = []
    for lang in [args.lang] if args.lang else LANGUAGES:
        for line in _lines(CORPUS / f"{lang}.jsonl"):
            inst = json.loads(line)
            if args.split and inst["split"] != args.split:
                continue
            dest = TREES / lang / inst["id"]
            if dest.exists():
                continue
            gitdir = mirror_dir(inst["repo"])
            if not gitdir.is_dir():
                missing.append(inst["repo"])
                continue
            extract_tree(gitdir, inst["commit"], dest)
            print("extracted", lang, inst["id"], inst["commit"][:10])
    for repo in missing:
        print("unfetched", repo)


def _state() -> set[str]:
    return {json.loads(line)["id"] for line in _lines(CORPUS / "rejected.jsonl")}


def _reject(repo: str, reason: str) -> None:
    with (CORPUS / "rejected.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"id": repo_id(repo), "repo": repo, "reason": reason}) + "\n")


# ---------------------------------------------------------------- select


def walk(root: Path) -> list[str]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        rel = os.path.relpath(dirpath, root)
        for f in filenames:
            out.append(f if rel == "." else f"{rel}/{f}".replace(os.sep, "/"))
    return sorted(out)


def manifests(files: list[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {lang: [] for lang in LANGUAGES}
    for rel in files:
        name = rel.rsplit("/", 1)[-1]
        if name in ("pyproject.toml", "setup.py", "setup.cfg") or (
            name.startswith("requirements") and name.endswith(".txt")
        ):
            found["python"].append(rel)
        elif name == "package.json":
            found["javascript"].append(rel)
        elif name == "Cargo.toml":
            found["rust"].append(rel)
        elif name.endswith(".csproj"):
            found["csharp"].append(rel)
    return found


def sources(files: list[str], lang: str) -> list[str]:
    return [f for f in files if f.endswith(SOURCE_EXT[lang])]


def decide_language(files: list[str]) -> str | None:
    """Among languages whose manifest is present, the one with the most source files."""
    found = manifests(files)
    have = [lang for lang in LANGUAGES if found[lang]]
    if not have:
        return None
    return max(have, key=lambda lang: (len(sources(files, lang)), -LANGUAGES.index(lang)))


def candidate_build_files(files: list[str], lang: str) -> list[str]:
    out = []
    for rel in files:
        name = rel.rsplit("/", 1)[-1]
        parts = rel.split("/")[:-1]
        if lang == "python":
            if name not in ("pyproject.toml", "requirements.txt"):
                continue
            if len(parts) > 2 or any(p.lower() in PY_SKIP_PARTS for p in parts):
                continue
        elif lang == "javascript" and name != "package.json":
            continue
        elif lang == "rust" and name != "Cargo.toml":
            continue
        elif lang == "csharp" and not name.endswith(".csproj"):
            continue
        out.append(rel)
    return out


def masked_build_files(root: Path, lang: str, files: list[str]) -> tuple[list[str], dict]:
    """Build files as the dev lists define them: masking removes ≥ 1 name and leaves none."""
    from depinfer.bench.masking import copy_tree, mask  # lazy: needs PYTHONPATH

    cands = candidate_build_files(files, lang)
    if not cands:
        return [], {}
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp) / "t"
        copy_tree(root, scratch)
        result = mask(scratch, lang, cands)
    keep = [f.path for f in result.files if not f.error and f.gold]
    gold = {f.path: f.gold for f in result.files if f.path in keep}
    return keep, gold


def ci_test(root: Path, files: list[str], lang: str) -> tuple[str | None, str | None]:
    from depinfer.ci import pick_job
    from depinfer.ci.plan import test_lines
    from depinfer.ci.workflow import read_workflows

    ci_files = [
        f for f in files if f.startswith(".github/workflows/") and f.endswith((".yml", ".yaml"))
    ]
    jobs = read_workflows(root, ci_files, [])
    best = pick_job(jobs, None, lang)  # session 16: the decided language's test job first
    not_plain = ""
    for job in [best] + [j for j in jobs if j is not best] if best else []:
        lines = own_language_lines(test_lines(job), lang)
        if lines:
            why = not_plain_runner(root, job.workflow, job.raw, job.matrix, _upto(job, lines[0]))
            if why:  # session 15: a test job that needs more than a plain Linux runner
                not_plain = not_plain or why
                continue
            return lines[0], job.workflow
    test_cmd, ci_file = cargo_action_test(root, ci_files) if lang == "rust" else (None, None)
    if test_cmd or not not_plain:
        return test_cmd, ci_file
    return None, NOT_PLAIN + not_plain


def own_language_lines(lines: list[str], lang: str) -> list[str]:
    """Session 16 (corpus/README.md step 5): of a job's test lines (install-only lines left
    out), those that run the repository's own language's tests (`command_language`), else
    the language-neutral ones (`make test`, a repository's test script); a line running
    another ecosystem's tests (`cargo test` in a JavaScript repository) never counts."""
    from depinfer.ci.workflow import command_language

    lines = [ln for ln in lines if not INSTALL_LINE.search(ln)]
    own = [ln for ln in lines if command_language(ln) == lang]
    return own or [ln for ln in lines if command_language(ln) is None]


# session 15 (corpus/README.md step 5): the test job must run on a plain Linux runner
NOT_PLAIN = "not plain: "
SECRET = re.compile(r"\bsecrets\s*(?:\.|\[\s*['\"])(?!GITHUB_TOKEN\b)\w")


def _upto(job, line: str) -> int:
    """How many of the job's steps run up to and including the one running `line`."""
    from depinfer.ci.plan import unwrap
    from depinfer.ci.workflow import logical_lines

    for i, step in enumerate(job.steps):
        if step.run and line in map(unwrap, logical_lines(step.run)):
            return i + 1
    return len(job.steps)


def not_plain_runner(root: Path, workflow: str, raw: dict, matrix: dict, upto: int) -> str:
    """Why the test job needs more than a plain Linux runner, or "": service containers
    (`services:`), a job container (`container:`), a runner that is not a GitHub-hosted
    Ubuntu one (after the job's Linux matrix combination is put in), or a secret other than
    GITHUB_TOKEN in the workflow's or job's `env` or in a step up to the test step."""
    import yaml

    from depinfer.ci.workflow import substitute

    if raw.get("services"):
        return "services"
    if raw.get("container"):
        return "container"
    runs_on = substitute(json.dumps(raw.get("runs-on", "")), matrix)
    if not re.search(r"ubuntu", runs_on, re.I) or re.search(r"self-hosted", runs_on, re.I):
        return "runner"
    try:
        doc = yaml.safe_load((root / workflow).read_text(encoding="utf-8", errors="replace"))
    except (OSError, yaml.YAMLError):
        doc = {}
    steps = [s for s in raw.get("steps") or [] if isinstance(s, dict)][:upto]
    env = doc.get("env") if isinstance(doc, dict) else None
    if SECRET.search(json.dumps([env, raw.get("env"), steps], default=str)):
        return "secrets"
    return ""


# a run line that installs (`pip install pytest`, `pipx install nox`, `npm ci`) names a test
# tool without running it
INSTALL_LINE = re.compile(
    r"^(sudo\s+)?((python3?|py)\s+-m\s+)?(pip3?|pipx|uv|uvx|npm|pnpm|yarn|bun|poetry|pdm|"
    r"hatch|cargo|dotnet|apt-get|apt|brew|conda|mamba|micromamba|gem|choco)\b"
    r"(\s+\S+)*?\s+(install|inject|i|ci|add|restore|sync|tool\s+install)\b"
)


def cargo_action_test(root: Path, ci_files: list[str]) -> tuple[str | None, str | None]:
    """`uses: actions-rs/cargo` with `command: test` (and `args`) is `cargo test ARGS`: the
    workflow reader only reads `run:` lines, and this action is how many Rust CIs test."""
    import yaml

    from depinfer.ci.workflow import linux_combos

    for rel in ci_files:
        try:
            data = yaml.safe_load((root / rel).read_text(encoding="utf-8", errors="replace"))
        except (OSError, yaml.YAMLError):
            continue
        jobs = data.get("jobs") if isinstance(data, dict) else None
        for job in (jobs or {}).values():
            steps = (
                [s for s in job.get("steps") or [] if isinstance(s, dict)]
                if isinstance(job, dict)
                else []
            )
            for i, step in enumerate(steps):
                if "actions-rs/cargo" not in str(step.get("uses")):
                    continue
                with_ = step.get("with") or {}
                if isinstance(with_, dict) and str(with_.get("command")).strip() == "test":
                    args = str(with_.get("args") or "").strip()
                    combos = linux_combos(job.get("strategy"))
                    if "${{" not in args and not not_plain_runner(
                        root, rel, job, combos[0] if combos else {}, i + 1
                    ):
                        return " ".join(["cargo test", args]).strip(), rel
    return None, None


def counts(lang: str, gold: dict, files: list[str]) -> dict:
    from depinfer.bench.sections import PROJECT

    deps = [d for ds in gold.values() for d in ds]
    out: dict = {}
    if lang == "csharp":
        out["n_package_refs"] = sum(1 for d in deps if d.kind != PROJECT)
        out["n_project_refs"] = sum(1 for d in deps if d.kind == PROJECT)
    elif lang == "python":
        out["n_deps"] = len({d.name for d in deps})
    else:
        out["n_deps"] = len(deps)
    key = {"python": "py_files", "javascript": "src_files", "rust": "rs_files"}.get(
        lang, "cs_files"
    )
    out[key] = len(sources(files, lang))
    if lang == "python":
        out["ipynb_files"] = sum(1 for f in files if f.endswith(".ipynb"))
    out["files"] = len(files)
    return out


def runtime_fields(root: Path, lang: str, files: list[str], build_files: list[str]) -> dict:
    """The cheap runtime fields the dev lists carry (best effort; absent when unreadable)."""
    try:
        return _runtime_fields(root, lang, files, build_files)
    except Exception:  # noqa: BLE001 - a field we cannot read is left out
        return {}


def _runtime_fields(root: Path, lang: str, files: list[str], build_files: list[str]) -> dict:
    import re

    import tomlkit

    out: dict = {}
    if lang == "python":
        if (root / "pyproject.toml").is_file():
            doc = tomlkit.parse((root / "pyproject.toml").read_text(encoding="utf-8")).unwrap()
            backend = str((doc.get("build-system") or {}).get("build-backend", ""))
            poetry = "poetry" in (doc.get("tool") or {})
            kind = "poetry" if poetry else "pep621" if "project" in doc else "other"
            out["manifest_kind"] = f"{kind} ({backend.split('.')[0]})" if backend else kind
            rp = (doc.get("project") or {}).get("requires-python")
            if rp:
                out["python"] = str(rp)
        else:
            out["manifest_kind"] = "requirements.txt"
    elif lang == "javascript":
        pkg = json.loads((root / "package.json").read_text(encoding="utf-8"))
        out["module_type"] = "module" if pkg.get("type") == "module" else "commonjs"
        out["typescript"] = any(f.endswith((".ts", ".tsx")) for f in files)
        out["workspace"] = bool(pkg.get("workspaces")) or "pnpm-workspace.yaml" in files
    elif lang == "rust":
        text = (root / "Cargo.toml").read_text(encoding="utf-8")
        out["workspace"] = "[workspace]" in text
        eds = []
        for b in build_files:
            eds += re.findall(r'edition\s*=\s*"(\d{4})"', (root / b).read_text(encoding="utf-8"))
        if eds:
            out["edition"] = max(eds)
    elif lang == "csharp":
        tfms: set[str] = set()
        text_all = ""
        for f in files:
            if f.endswith(".csproj") or f.rsplit("/", 1)[-1].startswith("Directory."):
                text = (root / f).read_text(encoding="utf-8", errors="replace")
                text_all += text
                for m in re.findall(r"<TargetFrameworks?>([^<]+)<", text):
                    tfms |= {t.strip() for t in m.split(";") if t.strip()}
        out["target_frameworks"] = sorted(tfms)
        fw = [w for w in ("xunit", "nunit", "mstest") if w in text_all.lower()]
        out["test_framework"] = "+".join(fw) or None
        out["central_package_management"] = "Directory.Packages.props" in files
    return out


def judge(root: Path, meta: dict) -> tuple[dict | None, str]:
    files = walk(root)
    if len(files) > MAX_FILES:
        return None, f"more than {MAX_FILES} files"
    lang = decide_language(files)
    if lang is None:
        return None, "no manifest of the four languages"
    build_files, gold = masked_build_files(root, lang, files)
    names = {d.name for ds in gold.values() for d in ds}
    if len(names) < MIN_DEPS:
        return (
            None,
            f"{lang}: masked build files yield {len(names)} dependency names (< {MIN_DEPS})",
        )
    n_src = len(sources(files, lang))
    if n_src < MIN_SOURCES:
        return None, f"{lang}: {n_src} source files (< {MIN_SOURCES})"
    test_cmd, ci_file = ci_test(root, files, lang)
    if not test_cmd and ci_file and ci_file.startswith(NOT_PLAIN):
        why = ci_file[len(NOT_PLAIN) :]
        return None, f"{lang}: no CI test job on a plain Linux runner (first: {why})"
    if not test_cmd:
        return None, f"{lang}: no CI workflow job with a test command"
    repo = meta["repo"]
    inst = {
        "id": repo_id(repo),
        "repo": repo,
        "commit": meta["commit"],
        "date": meta["date"],
        "language": lang,
        "split": split_of(repo),
        "build_files": build_files,
        **{k: v for k, v in counts(lang, gold, files).items() if k.startswith("n_")},
        **runtime_fields(root, lang, files, build_files),
        "test_cmd": test_cmd,
        "ci_file": ci_file,
        **{k: v for k, v in counts(lang, gold, files).items() if not k.startswith("n_")},
    }
    return inst, ""


def root_commits(repo: str, commit: str) -> set[str]:
    """The parentless commits `commit` descends from, read from the candidate's snapshot."""
    out = git(mirror_dir(repo), "rev-list", "--max-parents=0", commit)
    return set(out.stdout.split()) if out.returncode == 0 else set()


ROOTS_CACHE = TREES / "_roots.json"  # repo -> root commits (a kept snapshot may be removed)


def kept_roots() -> dict[str, str]:
    """Root commit -> the kept instance (any language) that has it."""
    cache = json.loads(ROOTS_CACHE.read_text()) if ROOTS_CACHE.exists() else {}
    roots: dict[str, str] = {}
    for lang in LANGUAGES:
        for meta in sorted((TREES / lang).glob("*.json")) if (TREES / lang).is_dir() else []:
            inst = json.loads(meta.read_text())
            if inst["repo"] not in cache or not cache[inst["repo"]]:
                cache[inst["repo"]] = sorted(root_commits(inst["repo"], inst["commit"]))
            for root in cache[inst["repo"]]:
                roots.setdefault(root, inst["repo"])
    ROOTS_CACHE.write_text(json.dumps(cache, indent=0, sort_keys=True))
    return roots


def same_history(meta: dict, roots: dict[str, str]) -> str:
    """Session 12: a candidate whose history shares a root commit with a kept instance is the
    same project under another name (renamed or transferred) or a fork / template copy of
    it; keeping both would put one project in both splits."""
    for root in sorted(root_commits(meta["repo"], meta["commit"])):
        other = roots.get(root)
        if other and other.lower() != meta["repo"].lower():
            return f"shares its root commit with {other} (rename, transfer, fork or copy)"
    return ""


def cmd_select(_args: argparse.Namespace) -> None:
    staging = TREES / "_staging"
    roots = kept_roots() if any(staging.glob("*.meta.json")) else {}
    for meta_path in sorted(staging.glob("*.meta.json")):
        meta = json.loads(meta_path.read_text())
        rid = repo_id(meta["repo"])
        tree = staging / rid
        try:
            inst, reason = judge(tree, meta)
        except Exception as exc:  # noqa: BLE001 - a tree the readers cannot handle is rejected
            inst, reason = None, f"unreadable: {type(exc).__name__}: {str(exc)[:120]}"
        if inst is not None and (dup := same_history(meta, roots)):
            inst, reason = None, dup
        if inst is None:
            _reject(meta["repo"], reason)
            shutil.rmtree(tree)
            meta_path.unlink()
            print("rejected", rid, "-", reason)
            continue
        dest = TREES / inst["language"] / rid
        dest.parent.mkdir(parents=True, exist_ok=True)
        tree.rename(dest)
        (TREES / inst["language"] / f"{rid}.json").write_text(json.dumps(inst))
        meta_path.unlink()
        roots.update(dict.fromkeys(root_commits(meta["repo"], meta["commit"]), meta["repo"]))
        print("kept", inst["language"], rid)
    write_datasets()


def taken_prefix() -> set[str]:
    """The candidates the rule has reached: per group, the sha256-ordered candidates up to
    the first one not yet decided (a candidate decided out of order waits for its turn)."""
    decided = {json.loads(line)["id"].lower() for line in _lines(CORPUS / "rejected.jsonl")}
    for lang in LANGUAGES:
        if (TREES / lang).is_dir():
            decided |= {p.stem.lower() for p in (TREES / lang).glob("*.json")}
    taken: set[str] = set()
    for group in GROUPS:
        for entry in ordered():
            if entry["drop"] or entry["group"] != group:
                continue
            if repo_id(entry["repo"]).lower() not in decided:
                break
            taken.add(entry["repo"].lower())
    return taken


def refresh_kept() -> None:
    """Re-derive the CI test command of kept instances (after a change to that rule);
    an instance left without one is rejected like any other."""
    for lang in LANGUAGES:
        for meta in sorted((TREES / lang).glob("*.json")) if (TREES / lang).is_dir() else []:
            inst = json.loads(meta.read_text())
            tree = TREES / lang / inst["id"]
            test_cmd, ci_file = ci_test(tree, walk(tree), lang)
            if not test_cmd and (ci_file or "").startswith(NOT_PLAIN):
                continue  # listed before the session-15 filter: stays as listed (append-only)
            if not test_cmd:
                _reject(inst["repo"], f"{lang}: no CI workflow job with a test command")
                shutil.rmtree(tree)
                meta.unlink()
                continue
            if (test_cmd, ci_file) != (inst["test_cmd"], inst["ci_file"]):
                inst["test_cmd"], inst["ci_file"] = test_cmd, ci_file
                meta.write_text(json.dumps(inst))


def write_datasets() -> None:
    """corpus/<language>.jsonl from the kept instances the rule has reached, in candidate
    (sha256) order."""
    rank = {e["repo"].lower(): i for i, e in enumerate(ordered())}
    taken = taken_prefix()
    for lang in LANGUAGES:
        # append-only (session 11): an instance once in the dataset stays, even when a later
        # query adds a candidate whose hash sorts before it and is not decided yet
        listed = {json.loads(line)["repo"].lower() for line in _lines(CORPUS / f"{lang}.jsonl")}
        kept = [json.loads(p.read_text()) for p in (TREES / lang).glob("*.json")]
        kept = [inst for inst in kept if inst["repo"].lower() in taken | listed]
        kept.sort(key=lambda inst: rank.get(inst["repo"].lower(), 1 << 30))
        with (CORPUS / f"{lang}.jsonl").open("w", encoding="utf-8") as fh:
            for inst in kept:
                fh.write(json.dumps(inst) + "\n")
        splits = {s: sum(1 for i in kept if i["split"] == s) for s in ("train", "validation")}
        print(lang, len(kept), splits)


def cmd_newsplit(args: argparse.Namespace) -> None:
    """<out>/<language>-{train,validation}.jsonl: the instances of corpus/<language>.jsonl
    that are in none of <base>/<language>-*.jsonl (a later session's additions, kept apart
    so that the datasets others measure on stay as they are)."""
    base, out = Path(args.base), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES:
        old = set()
        for path in base.glob(f"{lang}-*.jsonl"):
            old |= {json.loads(line)["id"] for line in _lines(path)}
        rows = [json.loads(line) for line in _lines(CORPUS / f"{lang}.jsonl")]
        for split in ("train", "validation"):
            keep = [r for r in rows if r["split"] == split and r["id"] not in old]
            if args.append:  # others read these files while they grow: whole lines appended
                target = out / f"{lang}-{split}.jsonl"
                have = {json.loads(line)["id"] for line in _lines(target)}
                add = "".join(json.dumps(r) + "\n" for r in keep if r["id"] not in have)
                if add:
                    with target.open("a", encoding="utf-8") as fh:
                        fh.write(add)
                print(lang, split, len(have) + add.count("\n"))
                continue
            tmp = out / f".{lang}-{split}.jsonl.tmp"
            with tmp.open("w", encoding="utf-8") as fh:
                for r in keep:
                    fh.write(json.dumps(r) + "\n")
            tmp.replace(out / f"{lang}-{split}.jsonl")  # readers never see half a file
            print(lang, split, len(keep))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("candidates")
    o = sub.add_parser("order")
    o.add_argument("--group", required=True, choices=LANGUAGES)
    o.add_argument("--next", type=int, default=20)
    o.add_argument("--skip-mirrored", action="store_true")
    o.add_argument("--mark", action="store_true", help="'?': needs the step-3b pre-filter call")
    m = sub.add_parser("unfetchable")
    m.add_argument("repos", nargs="+")
    m.add_argument("--reason", default="no snapshot can be had")
    pf = sub.add_parser("prefiltered")
    pf.add_argument("repos", nargs="+")
    ex = sub.add_parser("extract")
    ex.add_argument("--only", help="a file of owner/name lines: extract only these")
    sub.add_parser("select")
    tr = sub.add_parser("trees")
    tr.add_argument("--lang", choices=LANGUAGES)
    tr.add_argument("--split", choices=("train", "validation"))
    sub.add_parser("datasets")
    sub.add_parser("refresh")
    ns = sub.add_parser("newsplit")
    ns.add_argument("--base", default="/work/corpus-split")
    ns.add_argument("--out", default="/work/corpus-split/new10")
    ns.add_argument("--append", action="store_true", help="append new lines, never rewrite")
    args = ap.parse_args()
    {
        "candidates": cmd_candidates,
        "order": cmd_order,
        "extract": cmd_extract,
        "unfetchable": lambda a: [
            _reject(r, a.reason) for r in a.repos if not mirror_dir(r).is_dir()
        ],
        "prefiltered": lambda a: [
            _reject(r, PREFILTER_REASON) for r in a.repos if not mirror_dir(r).is_dir()
        ],
        "select": cmd_select,
        "trees": cmd_trees,
        # session 13: `datasets` only rewrites the lists; `refresh` re-derives kept instances'
        # test commands with today's CI reader and rejects (deletes) those left without one,
        # which would break the append-only lists, so it is never run implicitly
        "datasets": lambda _a: write_datasets(),
        "refresh": lambda _a: (refresh_kept(), write_datasets()),
        "newsplit": cmd_newsplit,
    }[args.cmd](args)


if __name__ == "__main__":
    main()

"""One benchmark instance end to end: copy → mask → infer → write → re-read → score.

Everything happens in a scratch copy, so the repository trees are never modified. The
written build files are re-read by the same section readers that took the gold out
(`depinfer.bench.sections`), and depinfer's own manifest readers must accept every file it
wrote (a file they cannot read counts as a failure). A language depinfer does not support
yet writes nothing and scores as empty output; an exception inside depinfer is caught and
recorded in the instance's result, never raised to the caller.
"""

from __future__ import annotations

import difflib
import json
import os
import posixpath
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from depinfer.bench.dataset import Instance
from depinfer.bench.masking import copy_tree, mask
from depinfer.bench.metrics import Counts, compare, compare_features, per_file, scores_features
from depinfer.bench.sections import (
    LANGUAGE_OF_FORMAT,
    PACKAGE,
    Dep,
    SectionError,
    build_file_format,
    normalise_name,
    own_package_names,
    project_reference_path,
    read_deps,
)
from depinfer.ci.constraints import to_pep440
from depinfer.context import Options
from depinfer.manifests import detect_format, read_manifest
from depinfer.model import LANGUAGE_ECOSYSTEM
from depinfer.pipeline import make_context, write_edits
from depinfer.scan import scan

# DI-Bench's failure categories, decided here from the text alone (no execution):
MISSING_DEPENDENCY = "missing dependency in test"  # a gold name was not written
NOT_FOUND = "dependency not found in build"  # a written name the registry does not know
INVALID_VERSION = "invalid version in build"  # a written constraint no release satisfies
MISMATCHED_VERSION = "mismatched version in test"  # right name, constraint differs from gold
UNPARSABLE = "unparsable build file"  # depinfer wrote a file its own reader rejects


class MaskingFailed(Exception):
    """None of the instance's build files could be masked: there is nothing to score."""


@dataclass
class RunOptions:
    offline: bool = False
    names_only: bool = False
    as_of: str | None = "instance"  # "instance" (the instance's date), now, last-commit, a date
    keep: bool = False  # keep the scratch copy (for debugging); its path goes into the result
    check_versions: bool = True  # online: look up written constraints (invalid version)
    peers: tuple[str, ...] = ()  # peer tools to run on the same masked copy (bench/peers.py)
    all_evidence: bool = False  # write every evidenced internal reference (evidence ceiling)


def result_path(out: Path, inst: Instance) -> Path:
    return out / inst.language / f"{inst.id}.json"


def dibench_patch_path(out: Path, inst: Instance) -> Path:
    """Where DI-Bench's evaluator looks for a prediction: <results>/<language>/<id>/patch.diff."""
    from depinfer.bench.dibench import dibench_language  # lazy: DI-Bench data only

    return out / dibench_language(inst) / inst.id / "patch.diff"


def git_diff(old: dict[str, str], new: dict[str, str]) -> str:
    """A git-style unified diff (a/ b/ prefixes) of the changed files, as `git apply` reads it."""
    chunks = []
    for path in sorted(new):
        before, after = old.get(path, ""), new[path]
        if before == after:
            continue
        lines = list(
            difflib.unified_diff(
                before.splitlines(keepends=True),
                after.splitlines(keepends=True),
                f"a/{path}",
                f"b/{path}",
            )
        )
        if not lines:
            continue
        body = "".join(
            line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
            for line in lines
        )
        chunks.append(f"diff --git a/{path} b/{path}\n{body}")
    return "".join(chunks)


def _read(root: Path, rel: str) -> str:
    try:
        return (root / rel).read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return ""


def _read_exact(root: Path, rel: str) -> str:
    """A written file as written (a byte-order mark kept)."""
    try:
        return (root / rel).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _split(inst: Instance) -> dict[str, str]:
    """The dataset's split (train / validation / dev) carried into the result, so that a
    report can give the figures of each split apart."""
    split = inst.raw.get("split")
    return {"split": split} if isinstance(split, str) and split else {}


def _as_of(options: RunOptions, inst: Instance) -> str | None:
    if options.as_of in (None, "instance"):
        return inst.date
    return options.as_of


def predicted(
    root: Path, build_files: list[str]
) -> tuple[dict[str, list[Dep]], list[str], list[str]]:
    """What the written build files declare in the masked sections: (deps per file, files
    that cannot be parsed, where depinfer's own reader disagrees)."""
    pred: dict[str, list[Dep]] = {}
    errors: list[str] = []
    notes: list[str] = []
    for rel in build_files:
        text = _read(root, rel)
        try:
            pred[rel] = read_deps(text, rel, build_file_format(rel))
        except SectionError as exc:
            pred[rel] = []
            errors.append(f"{rel}: {exc}")
            continue
        fmt = detect_format(rel)
        if fmt:
            manifest = read_manifest(root, rel, fmt)
            if manifest.parse_error and not manifest.parse_error.startswith("no reader"):
                errors.append(f"{rel}: depinfer's reader: {manifest.parse_error}")
            elif not manifest.parse_error:
                disagreement = reader_disagreement(manifest, pred[rel])
                if disagreement:
                    notes.append(f"{rel}: {disagreement}")
    return pred, errors, notes


def reader_disagreement(manifest: Any, deps: list[Dep]) -> str:
    """Where depinfer's own manifest reader sees other names in the masked section than the
    benchmark's reader — a bug in one of them, worth a look, not a score."""
    language = LANGUAGE_OF_FORMAT.get(build_file_format(manifest.path) or "", "")
    if language == "csharp":
        base = posixpath.dirname(manifest.path)
        theirs = {
            normalise_name("csharp", n) for n in manifest.declared.get("PackageReference", [])
        }
        theirs |= {
            project_reference_path(base, n).lower()
            for n in manifest.declared.get("ProjectReference", [])
        }
    else:
        theirs = {normalise_name(language, n) for n in manifest.declared.get("dependencies", [])}
    ours = {d.name for d in deps}
    if theirs == ours:
        return ""
    parts = []
    if ours - theirs:
        parts.append("not seen by depinfer's reader: " + ", ".join(sorted(ours - theirs)))
    if theirs - ours:
        parts.append("only depinfer's reader sees: " + ", ".join(sorted(theirs - ours)))
    return "; ".join(parts)


def fake_check(
    ctx: Any, language: str, pred: dict[str, list[Dep]], own: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """Ask the registry about every written external name (internal references excluded:
    ProjectReferences, path dependencies, and names of packages the repository itself
    defines, `own`)."""
    ecosystem = LANGUAGE_ECOSYSTEM.get(language)
    names = sorted(
        {
            d.package or d.raw or d.name
            for deps in pred.values()
            for d in deps
            if d.kind == PACKAGE and d.name not in own
        }
    )
    answers: dict[str, bool | None] = {}
    if ecosystem is not None and names:
        try:
            answers = ctx.registries.exists_many(ecosystem, names)
        except Exception:  # a registry failure leaves the names unverified
            answers = {}
    fake = sorted(n for n in names if answers.get(n) is False)
    unverified = sorted(n for n in names if answers.get(n) is None)
    return {
        "written": len(names),
        "fake": len(fake),
        "unverified": len(unverified),
        "fake_names": fake,
        "unverified_names": unverified,
    }


def invalid_versions(ctx: Any, language: str, pred: dict[str, list[Dep]]) -> list[str]:
    """Written constraints that no published release satisfies ("invalid version in build").

    A constraint that names no version (path, git, workspace) or a name the registry does not
    know (counted as fake instead) is not judged here.
    """
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import InvalidVersion, Version

    ecosystem = LANGUAGE_ECOSYSTEM.get(language)
    if ecosystem is None:
        return []
    bad = []
    for deps in pred.values():
        for d in deps:
            if not d.version or d.kind != PACKAGE:
                continue
            alternatives = to_pep440(language, d.version)
            if alternatives is None:
                continue
            releases = ctx.registries.versions(ecosystem, d.package or d.raw)
            try:
                specs = [SpecifierSet(a) for a in alternatives]
            except InvalidSpecifier:
                # a SemVer pre-release PEP 440 cannot spell (`0.0.0-202301.Jan.22`) is valid
                # when it is a published release, as Cargo and npm read it
                named = d.version.strip().lstrip("^=~ ")
                if not any(r.version == named for r in releases):
                    bad.append(f"{d.raw} {d.version}")
                continue
            if not releases:
                continue  # unknown: offline, or the name itself is fake
            parsed = []
            for r in releases:
                try:
                    parsed.append(Version(r.version))
                except InvalidVersion:
                    continue
            if parsed and not any(s.contains(v, prereleases=True) for s in specs for v in parsed):
                bad.append(f"{d.raw} {d.version}")
    return bad


def run_peers(
    names: tuple[str, ...], inst: Instance, root: Path, gold: dict[str, list[Dep]], offline: bool
) -> dict[str, Any]:
    """Each peer for the instance's language, on the masked copy, scored like depinfer."""
    from depinfer.bench.peers import PEERS, run_peer  # lazy: only with --peers

    out: dict[str, Any] = {}
    for name in names:
        peer = PEERS[name]
        if peer.language != inst.language:
            continue
        answer = run_peer(peer, root, inst.build_files, offline)
        if answer["status"] == "ok":
            pred = answer.pop("pred")
            answer["metrics"] = {k: c.to_json() for k, c in compare(gold, pred).items()}
            answer["files"] = per_file(gold, pred)
        out[name] = answer
    return out


def compatible_counts(
    ctx: Any, language: str, gold: dict[str, list[Dep]], pred: dict[str, list[Dep]]
) -> Counts:
    """Name matches whose written constraint and gold constraint admit a common published
    release — the versions-aware score that does not punish `>=2.32` against `>=2.31`.

    Constraints that name no release (path, git, workspace) or packages the registry returns
    no releases for count only when both sides are spelt the same.
    """
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import InvalidVersion, Version

    ecosystem = LANGUAGE_ECOSYSTEM.get(language)
    tp = 0
    n_pred = sum(len({d.name for d in pred.get(p, [])}) for p in gold)
    n_gold = sum(len({d.name for d in deps}) for deps in gold.values())
    for path, deps in gold.items():
        mine = {d.name: d for d in pred.get(path, [])}
        for g in {d.name: d for d in deps}.values():
            p = mine.get(g.name)
            if p is None:
                continue
            if p.version == g.version:
                tp += 1
                continue
            ga, pa = to_pep440(language, g.version), to_pep440(language, p.version)
            releases = (
                ctx.registries.versions(ecosystem, p.package or p.raw)
                if ga is not None and pa is not None and ecosystem is not None
                else []
            )
            try:
                gs = [SpecifierSet(a) for a in ga or []]
                ps = [SpecifierSet(a) for a in pa or []]
            except InvalidSpecifier:
                continue
            for r in releases:
                try:
                    v = Version(r.version)
                except InvalidVersion:
                    continue
                if any(s.contains(v, prereleases=True) for s in gs) and any(
                    s.contains(v, prereleases=True) for s in ps
                ):
                    tp += 1
                    break
    return Counts(tp, n_pred - tp, n_gold - tp)


def failure_categories(
    gold: dict[str, list[Dep]],
    pred: dict[str, list[Dep]],
    fake: dict[str, Any],
    invalid: list[str],
    parse_errors: list[str],
    names_only: bool,
) -> list[str]:
    cats = []
    if parse_errors:
        cats.append(UNPARSABLE)
    if fake["fake"]:
        cats.append(NOT_FOUND)
    if invalid:
        cats.append(INVALID_VERSION)
    gold_keys = {(p, d.name) for p, deps in gold.items() for d in deps}
    pred_keys = {(p, d.name) for p, deps in pred.items() for d in deps}
    if gold_keys - pred_keys:
        cats.append(MISSING_DEPENDENCY)
    if not names_only:
        gold_v = {(p, d.name): d.version for p, deps in gold.items() for d in deps}
        for p, deps in pred.items():
            for d in deps:
                want = gold_v.get((p, d.name))
                if want is not None and want != d.version:
                    cats.append(MISMATCHED_VERSION)
                    break
            if MISMATCHED_VERSION in cats:
                break
    return cats


def run_instance(
    inst: Instance,
    tree: Path,
    options: RunOptions,
    premasked_gold: dict[str, list[Dep]] | None = None,
    workdir: Path | None = None,
) -> dict[str, Any]:
    """Score one instance. `premasked_gold` (DI-Bench data): the tree is already masked.

    The scratch copy goes into `workdir` (then the caller removes it) or a new temp dir.
    """
    started = time.monotonic()
    result: dict[str, Any] = {
        "id": inst.id,
        "language": inst.language,
        "repo": inst.repo,
        "commit": inst.commit,
        "build_files": inst.build_files,
        "names_only": options.names_only,
        "offline": options.offline,
        "as_of": _as_of(options, inst),
        **({"all_evidence": True} if options.all_evidence else {}),
        **_split(inst),
    }
    if not tree.is_dir():
        result.update(status="error", error=f"repository tree not found: {tree}", wall_time=0.0)
        return result
    owned = workdir is None
    scratch = Path(tempfile.mkdtemp(prefix=f"depinfer-bench-{inst.id[:40]}-")) if owned else workdir
    root = scratch / "repo"
    try:
        copy_tree(tree, root)
        gold = _masked_gold(root, inst, premasked_gold, result)
        masked_text = {rel: _read(root, rel) for rel in inst.build_files}
        if options.peers:
            result["peers"] = run_peers(options.peers, inst, root, gold, options.offline)
        ctx = _infer_and_write(root, inst, options, result)
        _score(root, inst, options, ctx, gold, masked_text, result)
    except MaskingFailed as exc:
        result.update(status="error", error=f"no build file could be masked: {exc}")
    except Exception as exc:  # depinfer itself failed on this instance: record, go on
        result.update(
            status="error",
            error=f"{type(exc).__name__}: {exc}",
            traceback=traceback.format_exc(limit=20),
        )
    finally:
        if options.keep:
            result["scratch"] = str(root)
        elif owned:
            import shutil

            shutil.rmtree(scratch, ignore_errors=True)
    result["wall_time"] = round(time.monotonic() - started, 3)
    return result


def _masked_gold(
    root: Path,
    inst: Instance,
    premasked_gold: dict[str, list[Dep]] | None,
    result: dict[str, Any],
) -> dict[str, list[Dep]]:
    """Mask the copy's build files (unless the data comes masked) and return the gold they
    held; MaskingFailed when none could be masked."""
    if premasked_gold is not None:
        result["mask"] = {"deleted": [], "errors": []}
        return premasked_gold
    masked = mask(root, inst.language, inst.build_files)
    result["mask"] = {"deleted": masked.deleted, "errors": masked.errors}
    if inst.build_files and len(masked.errors) == len(inst.build_files):
        raise MaskingFailed("; ".join(masked.errors))
    return masked.gold


def _infer_and_write(root: Path, inst: Instance, options: RunOptions, result: dict[str, Any]):
    """Run depinfer on the masked copy and write its manifests there; returns its context."""
    from depinfer.pipeline import infer  # at call time: the bench's tests replace it

    opts = Options(
        offline=options.offline,
        as_of=_as_of(options, inst),
        versions=not options.names_only,
        languages=(inst.language,),
        all_evidence=options.all_evidence,
    )
    ctx = make_context(opts)
    infer_started = time.monotonic()
    project = scan(root)
    inference = infer(root, opts, ctx=ctx, project=project)
    written = write_edits(root, inference.edits, ctx)
    result["infer_time"] = round(time.monotonic() - infer_started, 3)
    result["written_files"] = written
    # the texts themselves, so an executed run (bench/execute.py) can rebuild this tree
    result["written_text"] = {rel: _read_exact(root, rel) for rel in written}
    result["other_files_written"] = sorted(set(written) - set(inst.build_files))
    problems = [str(d) for d in ctx.diagnostics if d.level in ("error", "warning")]
    result["diagnostics"] = problems[:50]
    return ctx


def _score(
    root: Path,
    inst: Instance,
    options: RunOptions,
    ctx: Any,
    gold: dict[str, list[Dep]],
    masked_text: dict[str, str],
    result: dict[str, Any],
) -> None:
    """Compare what was written with the gold: metrics, fake names, invalid versions,
    DI-Bench's failure categories and the patch."""
    pred, parse_errors, reader_notes = predicted(root, inst.build_files)
    counts = compare(gold, pred)
    if not options.offline and not options.names_only:
        counts["compatible"] = compatible_counts(ctx, inst.language, gold, pred)
    fake = fake_check(ctx, inst.language, pred, frozenset(own_package_names(root, inst.language)))
    invalid = (
        invalid_versions(ctx, inst.language, pred)
        if options.check_versions and not options.offline and not options.names_only
        else []
    )
    new_text = {rel: _read(root, rel) for rel in inst.build_files}
    result.update(
        status="ok",
        gold={p: [d.to_json() for d in deps] for p, deps in gold.items()},
        pred={p: [d.to_json() for d in deps] for p, deps in pred.items()},
        files=per_file(gold, pred),
        metrics={k: c.to_json() for k, c in counts.items()},
        **(
            {"features": compare_features(gold, pred)}
            if scores_features(inst.language, gold)
            else {}
        ),
        fake=fake,
        invalid_versions=invalid,
        parse_errors=parse_errors,
        reader_disagreements=reader_notes,
        failure_categories=failure_categories(
            gold, pred, fake, invalid, parse_errors, options.names_only
        ),
        patch=git_diff(masked_text, new_text),
    )


def save_result(out: Path, inst: Instance, result: dict[str, Any], dibench: bool = False) -> Path:
    path = result_path(out, inst)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)
    if dibench and result.get("status") == "ok":
        patch = dibench_patch_path(out, inst)
        patch.parent.mkdir(parents=True, exist_ok=True)
        patch.write_text(result.get("patch", ""), encoding="utf-8")
    return path


def load_result(out: Path, inst: Instance) -> dict[str, Any] | None:
    path = result_path(out, inst)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _child(
    conn: Any, inst: Instance, tree: Path, options: RunOptions, gold: Any, work: str
) -> None:
    try:
        conn.send(run_instance(inst, tree, options, gold, workdir=Path(work)))
    except BaseException as exc:  # the parent records it; nothing may escape a child
        conn.send({"status": "error", "error": f"{type(exc).__name__}: {exc}"})
    finally:
        conn.close()


def run_isolated(
    inst: Instance,
    tree: Path,
    options: RunOptions,
    premasked_gold: dict[str, list[Dep]] | None = None,
    timeout: float = 0,
    spawn: bool = False,
) -> dict[str, Any]:
    """`run_instance` in a child process with a time limit (0: in this process, no limit).

    A hung or crashing instance then costs one result marked "timeout"/"error", not the run;
    the scratch directory belongs to the parent, so it is removed even when the child is killed.
    `spawn` starts a fresh interpreter instead of forking (needed when the caller runs threads).
    """
    if timeout <= 0:
        return run_instance(inst, tree, options, premasked_gold)
    import multiprocessing
    import shutil

    # fork is quick, but unsafe from a parent running threads (--jobs): spawn there
    ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") and not spawn else "spawn")
    work = tempfile.mkdtemp(prefix=f"depinfer-bench-{inst.id[:40]}-")
    started = time.monotonic()
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, inst, tree, options, premasked_gold, work))
    proc.start()
    child.close()
    try:
        if parent.poll(timeout):
            try:
                result = parent.recv()
            except EOFError:
                result = {"status": "error", "error": "the instance's process died"}
        else:
            result = {"status": "error", "error": f"timeout after {timeout:g}s"}
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        parent.close()
        if not options.keep:
            shutil.rmtree(work, ignore_errors=True)
    if "id" not in result:
        result = {
            "id": inst.id,
            "language": inst.language,
            "repo": inst.repo,
            "build_files": inst.build_files,
            **_split(inst),
            **result,
            "wall_time": round(time.monotonic() - started, 3),
        }
    return result

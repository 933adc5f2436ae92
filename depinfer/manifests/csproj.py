"""SDK-style .csproj and Directory.*.props: read what they declare, add references by position.

Reading uses ElementTree (MSBuild files are plain XML; the old MSBuild XML namespace is
stripped). Writing never re-serialises the XML: new elements are inserted as text at
source positions, so comments, attribute order, indentation, BOM and line endings stay as
they were. New `ItemGroup`s go where `dotnet add package` / `dotnet add reference` put
them: after the last `PropertyGroup`/`ItemGroup` of the project, package references and
project references in separate groups; an existing group of the same kind is extended.
"""

from __future__ import annotations

import posixpath
import re
import xml.etree.ElementTree as ET
from typing import Any

from depinfer.facts.csharp import dep_facts
from depinfer.manifests import ManifestError
from depinfer.model import Manifest, Requirement

# What each format declares (the "declared" keys).
PACKAGE_REFERENCE = "PackageReference"
PROJECT_REFERENCE = "ProjectReference"
PACKAGE_VERSION = "PackageVersion"

_TRUE = {"true", "enable", "enabled", "yes"}


def constant_symbols(value: str | None) -> list[str]:
    """The symbols a DefineConstants value defines (`$(DefineConstants);POMELO` → POMELO)."""
    return [s for s in re.split(r"[;,\s]+", value or "") if s and not s.startswith("$(")]


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _text(el: ET.Element) -> str:
    return (el.text or "").strip()


def read(text: str, path: str) -> tuple[dict[str, list[str]], dict[str, Any]]:
    """(declared, data) of a .csproj or a Directory.*.props file."""
    try:
        root = ET.fromstring(text.lstrip("\ufeff"))
    except ET.ParseError as exc:
        raise ManifestError(f"not well-formed XML: {exc}") from exc
    if _local(root.tag) != "Project":
        raise ManifestError("not an MSBuild project (root element is not <Project>)")

    declared: dict[str, list[str]] = {}
    data = _empty_data(root)
    _read_top_level(root, data)
    for group in root.iter():
        tag = _local(group.tag)
        if tag == "PropertyGroup":
            _read_properties(group, data)
        elif tag == "ItemGroup":
            group_cond = group.get("Condition")
            for item in group:
                _read_item(item, group_cond, declared, data)
        elif tag == "ItemDefinitionGroup":
            # defaults for every item of a kind: `<PackageReference><PrivateAssets>` here
            # decides whether packages flow on to the projects that reference this one
            for item in group:
                if _local(item.tag) == PACKAGE_REFERENCE:
                    private = item.get("PrivateAssets") or _child_text(item, "PrivateAssets")
                    if private:
                        data["package_private_assets_default"] = private
    _summarize_properties(data, text)
    return declared, data


def _empty_data(root: ET.Element) -> dict[str, Any]:
    """The facts `read` gathers, before any element is read."""
    return {
        "sdk": root.get("Sdk") or "",
        "properties": {},
        "package_versions": {},
        "package_reference_versions": {},
        "private_assets": [],
        "global_package_references": [],
        "framework_references": [],
        "internals_visible_to": [],
        "trimmer_roots": [],  # TrimmerRootAssembly: assemblies the trimmer must keep whole
        "protobuf_services": [],  # GrpcServices of each Protobuf item (Grpc.Tools compiles them)
        "usings": [],
        "using_removes": [],
        "compile_include": [],
        "compile_remove": [],
        "output_items": [],  # items taken from another project's bin/ (its build output)
        "imports": [],
        "conditional_references": [],
        "project_reference_items": [],  # (Include, Condition) of each ProjectReference
    }


def _read_top_level(root: ET.Element, data: dict[str, Any]) -> None:
    """SDK style, `<Sdk>` elements and `<Import>`s among the project's own children."""
    # SDK-style: `<Project Sdk=…>`, an `<Sdk>` element or an `<Import Sdk=…>`; the older
    # format (ToolsVersion, packages.config, `<Reference HintPath>`) restores nothing itself
    data["sdk_style"] = bool(root.get("Sdk")) or any(
        _local(c.tag) == "Sdk" or (_local(c.tag) == "Import" and c.get("Sdk")) for c in root
    )
    for child in root:
        if _local(child.tag) == "Sdk" and child.get("Name"):
            data["sdk"] = data["sdk"] or child.get("Name")
            # `<Sdk Name="Aspire.AppHost.Sdk" Version="9.5.2" />`: kept as Name/Version, the
            # form of the Project element's Sdk attribute
            version = child.get("Version")
            named = f"{child.get('Name')}/{version}" if version else child.get("Name")
            data.setdefault("extra_sdks", []).append(named)
        if _local(child.tag) == "Import" and child.get("Project"):
            data["imports"].append(child.get("Project"))


def _read_properties(group: ET.Element, data: dict[str, Any]) -> None:
    """One PropertyGroup: an unconditional value wins over a conditional one."""
    props = data["properties"]
    for prop in group:
        name = _local(prop.tag)
        if name and (name not in props or not prop.get("Condition")):
            props[name] = _text(prop)
        if name == "DefineConstants":
            # every configuration's symbols: `#if` guards are read against these
            symbols = data.setdefault("define_constants", [])
            symbols.extend(s for s in constant_symbols(_text(prop)) if s not in symbols)
        _output_path(_text(prop), data)


def _summarize_properties(data: dict[str, Any], text: str) -> None:
    """The properties later steps read by name, and the file's line ending."""
    props = data["properties"]
    frameworks = props.get("TargetFrameworks") or props.get("TargetFramework") or ""
    data["target_frameworks"] = [f.strip() for f in frameworks.split(";") if f.strip()]
    data["implicit_usings"] = props.get("ImplicitUsings", "").lower() in _TRUE
    data["nullable"] = props.get("Nullable", "")
    data["is_test_project"] = props.get("IsTestProject", "").lower() == "true"
    data["output_type"] = props.get("OutputType", "")
    data["root_namespace"] = props.get("RootNamespace", "")
    data["assembly_name"] = props.get("AssemblyName", "")
    data["manage_package_versions_centrally"] = (
        props.get("ManagePackageVersionsCentrally", "").lower() == "true"
    )
    data["crlf"] = "\r\n" in text


def _read_item(
    item: ET.Element, group_cond: str | None, declared: dict[str, list[str]], data: dict
) -> None:
    kind = _local(item.tag)
    include = item.get("Include") or ""
    if kind in (PACKAGE_REFERENCE, PROJECT_REFERENCE, PACKAGE_VERSION) and include:
        declared.setdefault(kind, []).append(include)
        version = item.get("Version") or _child_text(item, "Version")
        if kind == PACKAGE_VERSION:
            data["package_versions"][include] = version or ""
        elif kind == PACKAGE_REFERENCE:
            data["package_reference_versions"][include] = version or ""
            private = item.get("PrivateAssets") or _child_text(item, "PrivateAssets")
            if private and private.lower() == "all":
                data["private_assets"].append(include)
        if kind == PROJECT_REFERENCE:
            cond = " and ".join(f"({c})" for c in (group_cond, item.get("Condition")) if c)
            data["project_reference_items"].append([include, cond])
        if group_cond or item.get("Condition"):
            data["conditional_references"].append(include)
            data.setdefault("reference_conditions", {})[include] = " ".join(
                c for c in (group_cond, item.get("Condition")) if c
            )
    elif kind == "GlobalPackageReference" and include:
        data["global_package_references"].append(include)
        data["package_versions"].setdefault(include, item.get("Version") or "")
    elif kind == "InternalsVisibleTo" and include:
        data["internals_visible_to"].append(include)
    elif kind == "TrimmerRootAssembly" and include:
        data["trimmer_roots"].append(include)
    elif kind == "Protobuf" and include:  # package literal: the MSBuild item type
        # Grpc.Tools' default for GrpcServices is Both
        data["protobuf_services"].append(
            item.get("GrpcServices") or _child_text(item, "GrpcServices") or "Both"
        )
    elif kind == "FrameworkReference" and include:
        data["framework_references"].append(include)
    elif kind == "Using":
        if include:
            entry = {"namespace": include}
            if item.get("Alias"):
                entry["alias"] = item.get("Alias")
            if (item.get("Static") or "").lower() == "true":
                entry["static"] = True
            cond = " and ".join(c for c in (group_cond, item.get("Condition")) if c)
            if cond:
                entry["condition"] = cond
            data["usings"].append(entry)
        if item.get("Remove"):
            data["using_removes"].append(item.get("Remove"))
    elif kind == "Compile":
        if include:
            data["compile_include"].extend(p for p in include.split(";") if p)
        if item.get("Remove"):
            data["compile_remove"].extend(p for p in item.get("Remove", "").split(";") if p)
    elif kind == "Reference" and include and _child_text(item, "HintPath"):
        # an assembly taken from a file in the repository (old format, vendored DLLs)
        data.setdefault("hinted_references", []).append(include.split(",", 1)[0].strip())
    elif kind in ("EmbeddedResource", "None", "Content"):
        for p in (include or "").split(";"):
            if "$(" not in p.split("bin", 1)[0] and ("/bin/" in p or "\\bin\\" in p):
                data["output_items"].append(p)


# A property pointing into another project's build output (`<SpecExecutable>
# $(MSBuildProjectDirectory)\..\Gen\bin\…\Gen.dll`) runs or reads that output: only
# these directory properties may prefix the path, so it stays relative to the project.
_PROJECT_DIR_PROPS = ("$(MSBuildProjectDirectory)", "$(MSBuildThisFileDirectory)")


def _output_path(value: str, data: dict) -> None:
    for prefix in _PROJECT_DIR_PROPS:
        if value.startswith(prefix):
            value = value[len(prefix) :].lstrip("\\/")
            break
    head = value.replace("\\", "/").split("/bin/", 1)[0]
    if "/bin/" in value.replace("\\", "/") and "$(" not in head and ";" not in head:
        data["output_items"].append(value)


def _child_text(item: ET.Element, name: str) -> str:
    for sub in item:
        if _local(sub.tag) == name:
            return _text(sub)
    return ""


# --------------------------------------------------------------------------- writing

_ELEMENT_END = re.compile(r"</(PropertyGroup|ItemGroup)\s*>|<(PropertyGroup|ItemGroup)\b[^>]*/>")
_PROJECT_CLOSE = re.compile(r"</Project\s*>")
_COMMENT = re.compile(r"<!--.*?-->", re.S)


def _blank_comments(text: str) -> str:
    """Same length as `text`, with comments replaced by spaces (positions stay valid)."""
    return _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


_NESTING = re.compile(r"<(Target|Choose)\b[^>]*?(?<!/)>.*?</\1\s*>", re.S)


def _nested_spans(clean: str) -> list[tuple[int, int]]:
    """Spans of Target/Choose elements: groups inside them are not the project's own."""
    return [(m.start(), m.end()) for m in _NESTING.finditer(clean)]


def _inside(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= pos < b for a, b in spans)


def _groups(text: str) -> list[tuple[int, int, str]]:
    """(start, end, body) of each top-level ItemGroup, comments ignored."""
    clean = _blank_comments(text)
    nested = _nested_spans(clean)
    out = []
    for m in re.finditer(r"<ItemGroup\b[^>]*?(/?)>", clean):
        if m.group(1) or _inside(m.start(), nested):
            continue
        close = clean.find("</ItemGroup>", m.end())
        if close < 0:
            continue
        out.append((m.start(), close + len("</ItemGroup>"), clean[m.start() : close]))
    return out


def _indent_unit(text: str) -> str:
    for line in text.splitlines():
        m = re.match(r"^([ \t]+)<(PropertyGroup|ItemGroup)\b", line)
        if m:
            return m.group(1)
    return "  "


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _attr(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def render(text: str, manifest: Manifest, requirements: list[Requirement]) -> str:
    """The file with the requirements added (already declared ones are left as they are)."""
    declared = {
        kind: {n.lower().replace("\\", "/") for n in names}
        for kind, names in manifest.declared.items()
    }
    newline = "\r\n" if "\r\n" in text else "\n"
    unit = _indent_unit(text)
    base_dir = posixpath.dirname(manifest.path.replace("\\", "/"))
    separator = "/" if re.search(r'ProjectReference\s+Include="[^"\\]*/', text) else "\\"

    packages: list[tuple[str, str]] = []
    conditional: dict[str, list[tuple[str, str]]] = {}
    frameworks: list[str] = []
    projects: list[str] = []
    versions: list[str] = []
    seen: set[str] = set()
    for req in requirements:
        if req.internal and req.path:
            rel = posixpath.relpath(req.path.replace("\\", "/"), base_dir or ".")
            if rel.lower() in declared.get(PROJECT_REFERENCE, set()) or rel.lower() in seen:
                continue
            seen.add(rel.lower())
            # a source generator / analyzer project runs in the compiler, not as a library
            # (and one built only for the files its output gives, not for its API)
            analyzer = (
                ' OutputItemType="Analyzer" ReferenceOutputAssembly="false"'
                if dep_facts(req).analyzer
                else ' ReferenceOutputAssembly="false"'
                if dep_facts(req).build_order
                else ""
            )
            projects.append(
                f'<ProjectReference Include="{_attr(rel.replace("/", separator))}"{analyzer} />'
            )
            continue
        key = req.name.lower()
        if key in seen:
            continue
        seen.add(key)
        if dep_facts(req).framework_reference:
            if req.name not in manifest.data.get("framework_references", []):
                frameworks.append(f'<FrameworkReference Include="{_attr(req.name)}" />')
            continue
        if manifest.format == "props" or dep_facts(req).package_version:
            if key in declared.get(PACKAGE_VERSION, set()):
                continue
            versions.append(
                f'<PackageVersion Include="{_attr(req.name)}" Version="{_attr(req.spec)}" />'
            )
            continue
        if key in declared.get(PACKAGE_REFERENCE, set()):
            continue
        condition = _tfm_condition(list(dep_facts(req).tfms))
        if condition:
            conditional.setdefault(condition, []).append(
                (req.name.lower(), _package_reference(req, unit, newline))
            )
            continue
        packages.append((req.name.lower(), _package_reference(req, unit, newline)))

    for kind, lines in (
        (PACKAGE_VERSION, versions),
        (PACKAGE_REFERENCE, frameworks + [line for _, line in sorted(packages)]),
        (PROJECT_REFERENCE, projects),
    ):
        if lines:
            text = _add_items(text, kind, lines, unit, newline)
    for condition, items in sorted(conditional.items()):
        text = _add_items(
            text, PACKAGE_REFERENCE, [line for _, line in sorted(items)], unit, newline, condition
        )
    return text


def _tfm_condition(tfms: list[str]) -> str:
    """The MSBuild condition selecting these target frameworks ("" for all)."""
    tfms = [t for t in tfms if t and t != "*"]
    return " or ".join(f"'$(TargetFramework)' == '{t}'" for t in tfms)


def _package_reference(req: Requirement, unit: str, newline: str) -> str:
    facts = dep_facts(req)
    version = "" if facts.central or not req.spec else f' Version="{_attr(req.spec)}"'
    if facts.private_assets:
        inner = unit * 3
        return (
            f'<PackageReference Include="{_attr(req.name)}"{version}>{newline}'
            f"{inner}<PrivateAssets>all</PrivateAssets>{newline}"
            f"{inner}<IncludeAssets>runtime; build; native; contentfiles; analyzers; "
            f"buildtransitive</IncludeAssets>{newline}{unit * 2}</PackageReference>"
        )
    return f'<PackageReference Include="{_attr(req.name)}"{version} />'


def _add_items(
    text: str, kind: str, lines: list[str], unit: str, newline: str, condition: str = ""
) -> str:
    """Append to the first ItemGroup holding `kind` under the same condition (none by
    default), else add a new group."""
    for _start, end, body in _groups(text):
        head = body[: body.find(">") + 1]
        m = re.search(r'Condition="([^"]*)"', head)
        if (m.group(1).strip() if m else "") != condition or not re.search(rf"<{kind}\b", body):
            continue
        close = end - len("</ItemGroup>")
        insert_at = _line_start(text, close)
        if text[insert_at:close].strip():  # "</ItemGroup>" shares a line with an item
            insert_at = close
        last_item = list(re.finditer(rf"(?m)^([ \t]*)<{kind}\b", body))
        item_indent = last_item[-1].group(1) if last_item else unit * 2
        addition = "".join(f"{item_indent}{line}{newline}" for line in lines)
        if insert_at == close:
            addition = newline + addition
        return text[:insert_at] + addition + text[insert_at:]

    clean = _blank_comments(text)
    nested = _nested_spans(clean)
    ends = [m for m in _ELEMENT_END.finditer(clean) if not _inside(m.start(), nested)]
    close = list(_PROJECT_CLOSE.finditer(clean))
    if not close:
        raise ManifestError("no </Project> to add references before")
    attr = f' Condition="{_attr(condition)}"' if condition else ""
    group = (
        f"{unit}<ItemGroup{attr}>{newline}"
        + "".join(f"{unit * 2}{line}{newline}" for line in lines)
        + f"{unit}</ItemGroup>{newline}"
    )
    if ends:
        pos = ends[-1].end()
        eol = text.find("\n", pos)
        pos = len(text) if eol < 0 else eol + 1
        return text[:pos] + newline + group + text[pos:]
    pos = _line_start(text, close[-1].start())
    if text[pos : close[-1].start()].strip():
        pos = close[-1].start()
        group = newline + group
    return text[:pos] + group + text[pos:]

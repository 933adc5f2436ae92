"""package.json reading and writing: only dependency sections change, formatting kept."""

import json

import pytest

from depinfer.manifests import ManifestError
from depinfer.manifests.package_json import read, render
from depinfer.model import Ecosystem, Manifest, Requirement, Section


def req(name: str, spec: str = "^1.0.0", section: Section = Section.RUNTIME) -> Requirement:
    return Requirement(Ecosystem.NPM, name, "package.json", section=section, spec=spec)


def manifest(text: str) -> Manifest:
    declared, data = read(text, "package.json")
    return Manifest("package.json", Ecosystem.NPM, "package_json", declared, data=data)


def test_read_sections_and_facts():
    text = json.dumps(
        {
            "name": "x",
            "version": "1.2.3",
            "type": "module",
            "workspaces": {"packages": ["packages/*"]},
            "devDependencies": {"jest": "^29"},
            "peerDependencies": {"react": ">=18"},
            "scripts": {"test": "jest"},
        }
    )
    declared, data = read(text, "package.json")
    assert declared == {"devDependencies": ["jest"], "peerDependencies": ["react"]}
    assert data["name"] == "x" and data["type"] == "module"
    assert data["workspaces"] == ["packages/*"]
    assert data["specs"]["devDependencies"] == {"jest": "^29"}


def test_invalid_json_is_a_manifest_error():
    with pytest.raises(ManifestError):
        read('{"name": ', "package.json")


def test_new_section_is_appended_like_npm_with_two_spaces():
    text = '{\n  "name": "x",\n  "version": "1.0.0",\n  "files": ["dist"]\n}\n'
    out = render(text, manifest(text), [req("zod"), req("chalk", "^5.0.0")])
    assert out == (
        '{\n  "name": "x",\n  "version": "1.0.0",\n  "files": ["dist"],\n'
        '  "dependencies": {\n    "chalk": "^5.0.0",\n    "zod": "^1.0.0"\n  }\n}\n'
    )


def test_tabs_four_spaces_crlf_and_missing_trailing_newline_are_kept():
    tabs = '{\n\t"name": "x"\n}'
    out = render(tabs, manifest(tabs), [req("a")])
    assert out == '{\n\t"name": "x",\n\t"dependencies": {\n\t\t"a": "^1.0.0"\n\t}\n}'
    crlf = '{\r\n    "name": "x"\r\n}\r\n'
    out = render(crlf, manifest(crlf), [req("a")])
    assert out == (
        '{\r\n    "name": "x",\r\n    "dependencies": {\r\n        "a": "^1.0.0"\r\n    }\r\n}\r\n'
    )


def test_existing_section_gains_sorted_entries_and_keeps_its_values():
    text = (
        '{\n  "name": "x",\n  "dependencies": {"b": "~2", "Zed": "1"},\n'
        '  "devDependencies": {\n    "jest": "^29"\n  }\n}\n'
    )
    out = render(text, manifest(text), [req("a"), req("b", "^9.9.9"), req("c", "*", Section.DEV)])
    doc = json.loads(out)
    assert list(doc["dependencies"]) == ["a", "b", "Zed"]
    assert doc["dependencies"]["b"] == "~2"  # what the file declares is not overwritten
    assert list(doc["devDependencies"]) == ["c", "jest"]
    assert out.endswith('    "jest": "^29"\n  }\n}\n')


def test_nothing_new_leaves_the_text_identical():
    text = '{"name":"x","dependencies":{"a":"1"}}'
    assert render(text, manifest(text), [req("a")]) == text


def test_empty_object_and_other_sections():
    text = "{}\n"
    out = render(text, manifest(text), [req("p", "^1.0.0", Section.PEER)])
    assert json.loads(out) == {"peerDependencies": {"p": "^1.0.0"}}


def test_workspace_spec_is_written_as_given():
    text = '{\n  "name": "app"\n}\n'
    out = render(text, manifest(text), [req("@acme/core", "workspace:*")])
    assert json.loads(out)["dependencies"] == {"@acme/core": "workspace:*"}


def test_section_that_is_not_an_object_is_not_edited():
    text = '{"name": "x", "dependencies": []}'
    with pytest.raises(ManifestError):
        render(text, manifest(text), [req("a")])

"""`safe_load` through libyaml when PyYAML was built with it: the same documents, about
fifteen times faster (the eight workflows of a real repository, 28 kB: 27 ms with the
pure-Python loader, 2 ms with libyaml), and every stage that reads YAML reads it here. A
document libyaml refuses is read again by the pure loader, so the error (and its message)
is the one it always was. Errors are `yaml.YAMLError`."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """`YAMLError`, loading PyYAML only then: importing it costs a short run 10 ms (its
    reader compiles a large pattern), and a Python run whose workflows install no
    requirements file reads no YAML at all."""
    if name == "YAMLError":
        import yaml

        return yaml.YAMLError
    raise AttributeError(name)


def safe_load(text: str) -> Any:
    import yaml  # lazy (above)

    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None:
        try:
            return yaml.load(text, Loader=fast)  # noqa: S506 - a safe loader
        except yaml.YAMLError:
            pass
    return yaml.safe_load(text)

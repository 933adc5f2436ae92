"""MSBuild `Condition` attributes, read for one project.

Directory.Build.props/targets put items on some projects only: `'$(IsTestProject)' ==
'true'`, `$(MSBuildProjectName.EndsWith('Tests'))`, `$(MSBuildProjectFullPath.Contains(
'Modules'))`, joined by `and` / `or`, negated by `!`, grouped by parentheses. This reads
that subset with three-valued logic: a part it cannot read (a property the SDK sets per
build, another property function) is unknown, and an unknown condition counts as holding,
so an item is only dropped when the condition surely excludes it.
"""

from __future__ import annotations

import re

# Properties MSBuild or the SDK sets while evaluating (per target framework, per
# configuration): a condition on them holds for some build.
SDK_PROPERTIES = {
    "targetframework",
    "targetframeworkidentifier",
    "targetframeworkversion",
    "configuration",
    "platform",
    "os",
    "runtimeidentifier",
    "msbuildruntimetype",
    "designtimebuild",
    "buildingproject",
    "ci",
    "continuousintegrationbuild",
}

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<str>'[^']*'|"[^"]*")
      | (?P<func>\$\(\s*\w+\.\w+\(\s*(?:'[^']*'|"[^"]*")\s*\)\s*\))
      | (?P<prop>\$\(\s*\w+\s*\))
      | (?P<op>==|!=|!|\(|\))
      | (?P<word>and\b|or\b|true\b|false\b)
      | (?P<other>\S+)
    )""",
    re.X | re.I,
)
_FUNC = re.compile(r"\$\(\s*(\w+)\.(\w+)\(\s*(?:'([^']*)'|\"([^\"]*)\")\s*\)\s*\)")
_PROP = re.compile(r"\$\(\s*(\w+)\s*\)")
# property functions of System.IO.Path and friends written inside a literal
_STATIC = {"$([system.io.path]::directoryseparatorchar)": "/"}


def evaluate(condition: str, props: dict[str, str]) -> bool | None:
    """True / False when the condition is decided for these properties (lower-case
    names), None when some needed part is unknown."""
    text = condition
    for k, v in _STATIC.items():
        text = re.sub(re.escape(k), v, text, flags=re.I)
    tokens: list[tuple[str, str]] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "other"
        tokens.append((kind, m.group(kind)))
    parser = _Parser(tokens, props)
    try:
        value = parser.expr()
    except _Unreadable:
        return None
    return value if parser.pos == len(tokens) else None


class _Unreadable(Exception):
    pass


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], props: dict[str, str]):
        self.tokens = tokens
        self.props = props
        self.pos = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        if self.pos >= len(self.tokens):
            raise _Unreadable
        self.pos += 1
        return self.tokens[self.pos - 1]

    def expr(self) -> bool | None:
        return self._joined("or", self.conj, dominant=True)

    def conj(self) -> bool | None:
        return self._joined("and", self.unary, dominant=False)

    def _joined(self, word: str, operand, dominant: bool) -> bool | None:
        """`a word b word c …` in three-valued logic: `dominant` (True for `or`, False for
        `and`) decides the whole on its own; otherwise an unknown part leaves it unknown."""
        value = operand()
        while (t := self.peek()) and t[0] == "word" and t[1].lower() == word:
            self.take()
            right = operand()
            if value is dominant or right is dominant:
                value = dominant
            elif value is None or right is None:
                value = None
            else:
                value = not dominant
        return value

    def unary(self) -> bool | None:
        t = self.peek()
        if t and t == ("op", "!"):
            self.take()
            inner = self.unary()
            return None if inner is None else not inner
        return self.atom()

    def atom(self) -> bool | None:
        kind, text = self.take()
        if (kind, text) == ("op", "("):
            value = self.expr()
            if self.take() != ("op", ")"):
                raise _Unreadable
            return value
        if kind == "word" and text.lower() in ("true", "false"):
            return text.lower() == "true"
        if kind == "func":
            return self.function(text)
        if kind in ("str", "prop"):
            left = self.value(kind, text)
            nxt = self.peek()
            if nxt and nxt[0] == "op" and nxt[1] in ("==", "!="):
                self.take()
                rkind, rtext = self.take()
                if rkind not in ("str", "prop"):
                    raise _Unreadable
                right = self.value(rkind, rtext)
                if left is None or right is None:
                    return None
                equal = left.strip().lower() == right.strip().lower()
                return equal if nxt[1] == "==" else not equal
            if left is None:
                return None
            return left.strip().lower() == "true"
        raise _Unreadable

    def value(self, kind: str, text: str) -> str | None:
        """A literal with its `$(Name)` parts replaced; None when one is not known."""
        raw = text[1:-1] if kind == "str" else text
        unknown = False

        def sub(m: re.Match[str]) -> str:
            nonlocal unknown
            name = m.group(1).lower()
            if name in SDK_PROPERTIES:
                unknown = True
                return ""
            return self.props.get(name, "")

        if "$(" in _PROP.sub("", raw):
            return None  # a property function inside the literal
        out = _PROP.sub(sub, raw)
        return None if unknown else out

    def function(self, text: str) -> bool | None:
        m = _FUNC.fullmatch(text.strip())
        if m is None:
            return None
        name, method = m.group(1).lower(), m.group(2).lower()
        arg = m.group(3) if m.group(3) is not None else m.group(4)
        if name in SDK_PROPERTIES or name not in self.props:
            return None
        value = self.props[name]
        if name in ("msbuildprojectfullpath", "msbuildprojectdirectory"):
            value, arg = value.replace("\\", "/"), arg.replace("\\", "/")
        if method == "endswith":
            return value.lower().endswith(arg.lower())
        if method == "startswith":
            return value.lower().startswith(arg.lower())
        if method == "contains":
            return arg.lower() in value.lower()
        return None

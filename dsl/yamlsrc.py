"""YAML reading with positions, and strict structuring into attrs classes.

ruamel.yaml's round-trip loader is used for its line and column data; it only
builds plain mappings, sequences and scalars (no arbitrary objects), which is
what "safe loading" requires. cattrs structures the data with detailed
validation, and every error is mapped back to the line and column of the key
or value it concerns.
"""

from __future__ import annotations

import functools
import io
import threading
import types
import typing
from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any, TypeVar

import attrs
import cattrs
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.composer import Composer, ComposerError, MaxDepthExceededError
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent
from ruamel.yaml.nodes import CollectionNode, ScalarNode

from ddaydice.dsl import yamlchars, yamlfast
from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean
from ddaydice.dsl.limits import (
    MAX_NESTING,
    MAX_REMEMBERED_YAML_BYTES,
    MAX_TABLE_NUMBER,
    MAX_YAML_ALIASES,
    MAX_YAML_VALUES,
    IdRule,
    Range,
    RulingRefRule,
    RulingRule,
)
from ddaydice.dsl.parser import SourceMap
from ddaydice.dsl.sandbox import is_slug, read_text, slug_hint, slug_problem

T = TypeVar("T")

# attribute name -> YAML key, where they differ beyond '_' -> '-'
_KEY_FOR_ATTR = {"from_": "from", "defense": "def"}
_ATTR_FOR_KEY = {v: k for k, v in _KEY_FOR_ATTR.items()}


def attr_to_key(name: str) -> str:
    return _KEY_FOR_ATTR.get(name, name.replace("_", "-"))


def key_to_attr(name: str) -> str:
    return _ATTR_FOR_KEY.get(name, name.replace("-", "_"))


@attrs.frozen
class YamlDoc:
    file: str
    text: str
    data: Any


class _CappedComposer(Composer):
    """ruamel's composer, counting the uses of aliases (a "billion laughs" bomb needs many), and refusing an alias
    inside the value it names and YAML's merge key ``<<``, each at its place."""

    aliases_used = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.parser.check_event(AliasEvent):
            event = self.parser.peek_event()
            named = self.anchors.get(event.anchor)
            if isinstance(named, CollectionNode) and named.end_mark is None:  # (still being composed: a loop)
                raise _SharedValueError(None, None, f"the alias *{event.anchor} is used inside the value it names "
                                        "(a loop)", event.start_mark)
        return super().compose_node(parent, index)

    def compose_scalar_node(self, anchor: Any) -> Any:
        tagged = self.parser.peek_event().tag not in (None, "!")  # ('!!merge foo': a tag written, no '<<')
        node = super().compose_scalar_node(anchor)
        if is_merge_key(node):
            raise _SharedValueError(None, None, MERGE_TAG_PROBLEM if tagged else MERGE_KEY_PROBLEM, node.start_mark)
        return node

    def return_alias(self, a: Any) -> Any:
        self.aliases_used += 1
        if self.aliases_used > MAX_YAML_ALIASES:
            raise _SharedValueError(None, None, f"too many aliases: more than {MAX_YAML_ALIASES} uses of aliases "
                                    "(*name)", getattr(a, "start_mark", None))
        return super().return_alias(a)


#: Why YAML's merge key is refused: a key it brings in has no place of its own in the file (a diagnostic about it
#: could only point at the ``<<`` or at another card), and YAML 1.2 has no merge key. Each record states its keys.
MERGE_KEY_PROBLEM = "the merge key '<<' is not read: each mapping writes out its own keys"
MERGE_TAG_PROBLEM = "the tag '!!merge' (of YAML's merge key '<<') is not read: content writes its values untagged"


def is_merge_key(node: Any) -> bool:
    """A plain ``<<``, which YAML 1.1 (and ruamel) reads as the merge key, whether as a key or as a value."""
    return isinstance(node, ScalarNode) and str(node.tag) == yamlfast.MERGE_TAG


class _SharedValueError(ComposerError):
    """YAML005: too many aliases, an alias inside itself, a merge key."""


def read_yaml(file: str, text: str | None = None, *, remember: bool = False) -> tuple[YamlDoc | None,
                                                                                    list[Diagnostic]]:
    """Parse one YAML file; syntax errors, duplicate keys and the limits (docs/security.md: its size, its
    aliases, how deep it nests, how many values it expands to) become diagnostics. A file is read only if it is
    a regular file of at most :data:`MAX_FILE_BYTES` bytes.

    ``remember``: the file is read (its bytes, every time) and, if its name and text are those of a file parsed
    before, the same document is returned without parsing it again (a load's content files, whose documents are
    only read: tests/test_remembered.py checks a whole load leaves them as parsed)."""
    if text is None:
        text, problems = _read_text(file)
        if text is None:
            return None, problems
    return _remembered(file, text) if remember else _parse(file, text)


def _read_text(file: str) -> tuple[str | None, list[Diagnostic]]:
    """A file's text, or None and why not (refused by the sandbox, not UTF-8)."""
    raw, refused = read_text(Path(file), file)
    if raw is None:
        return None, [refused] if refused is not None else []
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        line, col = _byte_position(exc.object, exc.start)
        bad = exc.object[exc.start:exc.start + 1].hex()
        return None, [Diagnostic("YAML003", f"not UTF-8 text: byte 0x{bad} cannot be decoded ({exc.reason})",
                                 file, line, col, hint="save the file with the UTF-8 encoding")]


def _parse(file: str, text: str) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """:func:`read_yaml` of a file's text: its characters (dsl/yamlchars.py), its YAML, the texts it gives."""
    problem = yamlchars.text_problem(file, text)
    doc, diags = (None, [problem]) if problem is not None else _parsed(file, text)
    controls = yamlchars.control_problems(file, text, doc.data) if doc is not None else []
    return (None, controls) if controls else (doc, diags)


def _parsed(file: str, text: str) -> tuple[YamlDoc | None, list[Diagnostic]]:
    try:  # libyaml's parser where the file is one it reads as ruamel does (dsl/yamlfast.py), else ruamel alone
        data = yamlfast.load(text, file, _ruamel())
    except (yamlfast.NotFast, ValueError, TypeError, IndexError, KeyError, AttributeError,
            OverflowError, RecursionError):
        return _read_slowly(file, text)
    problem = _expansion_problem(data)
    if problem is not None:
        return None, [Diagnostic("YAML005", problem, file, 1, 1,
                                 hint="write the values out; content needs few aliases, if any")]
    return YamlDoc(file, text, data), []


#: (name, text) -> the parsed document and its diagnostics, the least recently used first; at most
#: MAX_REMEMBERED_YAML_BYTES of text.
_REMEMBERED: dict[tuple[str, str], tuple[YamlDoc | None, tuple[Diagnostic, ...]]] = {}
_REMEMBERED_BYTES = [0]
_REMEMBERING = threading.Lock()  # (the language server checks in threads)


def _remembered(file: str, text: str) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """:func:`read_yaml` through the memory of the documents parsed before (see its ``remember``)."""
    key = (file, text)
    with _REMEMBERING:
        hit = _REMEMBERED.pop(key, None)
        if hit is not None:
            _REMEMBERED[key] = hit  # (the most recently used last: the oldest use goes first)
            return hit[0], list(hit[1])
    doc, diags = _parse(file, text)
    with _REMEMBERING:
        if key not in _REMEMBERED:
            _REMEMBERED[key] = (doc, tuple(diags))
            _REMEMBERED_BYTES[0] += len(text)
        while _REMEMBERED_BYTES[0] > MAX_REMEMBERED_YAML_BYTES and _REMEMBERED:
            oldest = next(iter(_REMEMBERED))
            del _REMEMBERED[oldest]
            _REMEMBERED_BYTES[0] -= len(oldest[1])
    return doc, diags


def _ruamel() -> YAML:
    """ruamel's round-trip loader as content is read: no duplicate key, aliases counted, nesting bounded."""
    yaml = YAML(typ="rt", pure=True)
    yaml.allow_duplicate_keys = False
    yaml.Composer = _CappedComposer
    yaml.max_depth = MAX_NESTING
    return yaml


def _read_slowly(file: str, text: str) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """ruamel alone: the reading whose diagnostics (syntax, duplicate keys, limits) are the canonical ones."""
    yaml = _ruamel()
    try:
        data = yaml.load(io.StringIO(text))
    except _SharedValueError as exc:
        mark = exc.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        merge, tag = exc.problem == MERGE_KEY_PROBLEM, exc.problem == MERGE_TAG_PROBLEM
        hint = ("write the shared keys out in each mapping (or quote '<<' if it is a text)" if merge else "remove "
                "the tag" if tag else "write the values out; content needs few aliases, if any")
        width = 2 if merge else len(_lines(text)[line - 1][col - 1:].split(" ", 1)[0]) if tag else 1
        return None, [Diagnostic("YAML005", str(exc.problem), file, line, col, width=width, hint=hint)]
    except MaxDepthExceededError as exc:
        mark = exc.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        return None, [Diagnostic("YAML006", f"nested too deeply (more than {MAX_NESTING} levels of mappings and "
                                 "lists)", file, line, col)]
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        col = mark.column + 1 if mark else 1
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        lines = text.splitlines()
        if lines and line > len(lines):  # the end of the file: point at the end of its last line
            line, col = len(lines), len(lines[-1]) + 1
        hint = None
        if "'\\t'" in problem:
            hint = "YAML indents with spaces only: replace the tab with spaces"
        elif "mapping values are not allowed" in problem:
            hint = "quote a value that contains ': ', and write an effect as a literal block ('effect: |')"
        elif "expected <block end>" in problem:
            hint = "check the indentation: the keys of one mapping must line up"
        elif exc.context and exc.context_mark is not None and exc.problem:
            where = f"line {exc.context_mark.line + 1}, column {exc.context_mark.column + 1}"
            hint = f"{exc.context.strip()} that starts at {where}"
            flows = {"while parsing a flow sequence": "[", "while parsing a flow mapping": "{"}
            opened = flows.get(exc.context.strip())
            if opened is not None:
                hint = f"the '{opened}' at {where} is never closed (quote a text that starts with '{opened}')"
        if "duplicate key" in str(exc):
            key = _duplicate_key(str(exc))
            return None, [Diagnostic("YAML002", f"duplicate key {shorten(key)}".strip(), file, line, col,
                                     hint="each key may appear once in a mapping")]
        return None, [Diagnostic("YAML001", f"YAML syntax error: {problem}", file, line, col, hint=hint)]
    except YAMLError as exc:
        return None, [Diagnostic("YAML001", f"YAML syntax error: {shorten(str(exc))}", file, 1, 1)]
    except RecursionError:
        return None, [Diagnostic("YAML006", f"nested too deeply (more than {MAX_NESTING} levels of mappings and "
                                 "lists)", file, 1, 1)]
    except (ValueError, TypeError, IndexError, KeyError, AttributeError, OverflowError) as exc:
        # ruamel raises these on exotic input (an empty '!!int', odd tags)
        return None, [Diagnostic("YAML001", f"YAML syntax error: {shorten(str(exc))}", file, 1, 1)]
    problem = _expansion_problem(data)
    if problem is not None:
        return None, [Diagnostic("YAML005", problem, file, 1, 1,
                                 hint="write the values out; content needs few aliases, if any")]
    return YamlDoc(file, text, data), []


def _expansion_problem(data: Any) -> str | None:
    """Why ``data`` is refused once its aliases are expanded: more than :data:`MAX_YAML_VALUES` values, more than
    :data:`MAX_NESTING` levels, or an alias inside itself. Linear in the distinct nodes (each is sized once)."""
    sizes: dict[int, tuple[int, int]] = {}  # id -> (values, depth) once expanded
    stack: list[tuple[Any, bool]] = [(data, False)]
    open_: set[int] = set()
    while stack:
        node, done = stack.pop()
        if not isinstance(node, dict | list):
            continue
        key = id(node)
        children = [v for v in (node.values() if isinstance(node, dict) else node) if isinstance(v, dict | list)]
        leaves = len(node) - len(children) + (len(node) if isinstance(node, dict) else 0)
        if done:
            open_.discard(key)
            values = 1 + leaves + sum(sizes[id(c)][0] for c in children)
            depth = 1 + max((sizes[id(c)][1] for c in children), default=0)
            if values > MAX_YAML_VALUES:
                return f"the file expands to more than {MAX_YAML_VALUES} values (through its aliases)"
            if depth > MAX_NESTING:
                return f"nested too deeply (more than {MAX_NESTING} levels of mappings and lists)"
            sizes[key] = (values, depth)
            continue
        if key in sizes:
            continue
        if key in open_:
            return "an alias is used inside the value it names (a loop)"
        open_.add(key)
        stack.append((node, True))
        for child in children:
            if id(child) in open_:
                return "an alias is used inside the value it names (a loop)"
            if id(child) not in sizes:
                stack.append((child, False))
    return None


def shorten(text: str, width: int = 60) -> str:
    """At most one line of ``text`` and ``width`` characters of it, for a message (never a whole file)."""
    lines = text.strip().splitlines() or [""]
    first = lines[0]
    if len(first) > width:
        return first[:width] + "…"
    return first + (" …" if len(lines) > 1 else "")


def _byte_position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of a byte offset in undecodable text."""
    before = data[:offset]
    line_start = before.rfind(b"\n") + 1
    column = len(before[line_start:].decode("utf-8", errors="replace")) + 1
    return before.count(b"\n") + 1, column


def _duplicate_key(message: str) -> str:
    for part in message.splitlines():
        if "found duplicate key" in part:
            return part.split("found duplicate key", 1)[1].split("with value")[0].strip()
    return ""


# ---------------------------------------------------------------- positions
def position(node: Any, path: Sequence[str | int], *, key: bool = False) -> tuple[int, int]:
    """1-based line and column of the value (or key) at ``path`` below ``node``.

    Walks as far as the path exists; a missing key points at its parent mapping, a key with no value at the key.
    """
    line, col = 1, 1
    if isinstance(node, CommentedMap | CommentedSeq) and node.lc.line is not None:
        line, col = node.lc.line + 1, node.lc.col + 1
    current = node
    for i, step in enumerate(path):
        last = i == len(path) - 1
        if isinstance(current, CommentedMap) and (isinstance(step, str) or step in current):
            k = attr_to_key(step) if isinstance(step, str) and attr_to_key(step) in current else step
            if k not in current:
                return line, col
            try:
                # A key with no value ('effect:' and nothing after it) is told at the key: the place its parser
                # gives the missing value is the next token's, often on the next line.
                lc = current.lc.key(k) if (key and last) or current[k] is None else current.lc.value(k)
            except (KeyError, TypeError):
                lc = current.lc.key(k)
            line, col = lc[0] + 1, lc[1] + 1
            current = current[k]
        elif isinstance(current, CommentedSeq) and isinstance(step, int):
            if not 0 <= step < len(current):
                return line, col
            lc = current.lc.item(step)
            line, col = lc[0] + 1, lc[1] + 1
            current = current[step]
        else:
            return line, col
    return line, col


@functools.lru_cache(maxsize=4)
def _lines(text: str) -> tuple[str, ...]:
    """A file's lines, split once for all the effects of the file (not once per effect: a file of many cards)."""
    return tuple(text.splitlines())


def scalar_source(doc: YamlDoc, parent: Any, key: str) -> tuple[SourceMap, Diagnostic | None]:
    """Where the text of ``parent[key]`` starts in the file, so DSL errors land on real lines."""
    line, col = position(parent, [key])
    lines = _lines(doc.text)
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    ch = raw[col - 1] if 0 < col <= len(raw) else ""
    if ch and ch in "|>":
        indent = None
        for follower in lines[line:]:
            if follower.strip():
                indent = len(follower) - len(follower.lstrip(" "))
                break
        smap = SourceMap(doc.file, line + 1, 1, indent or 0)
        if ch == ">":
            return smap, Diagnostic("YAML010", "write effects as literal blocks ('|'), not folded ('>')",
                                    doc.file, line, col, hint="a folded block joins lines, which changes the "
                                    "effect's clauses; use '|'", severity="error")
        return smap, None
    value = parent.get(key) if isinstance(parent, dict) else None
    several = "\n" in value.strip() if isinstance(value, str) else False
    if ch and ch in "'\"":
        several = several or not _closes_on_line(raw[col:], ch)
        smap = SourceMap(doc.file, line, col + 1)
    else:
        key_indent = position(parent, [key], key=True)[1] - 1
        follower = next((f for f in lines[line:] if f.strip() and not f.lstrip().startswith("#")), "")
        several = several or len(follower) - len(follower.lstrip(" ")) > key_indent
        smap = SourceMap(doc.file, line, col)
    if several:
        # a flow scalar folds its lines into one, which merges the effect's clauses and misplaces every error
        return smap, Diagnostic("YAML011", "an effect on several lines must be a literal block ('|')",
                                doc.file, line, col, hint="write 'effect: |' and each clause on its own line "
                                "below it")
    return smap, None


def _closes_on_line(rest: str, quote: str) -> bool:
    """Whether a quoted scalar whose text starts ``rest`` ends on the same line."""
    i = 0
    while i < len(rest):
        c = rest[i]
        if quote == '"' and c == "\\":
            i += 2
            continue
        if c == quote:
            if quote == "'" and rest[i + 1:i + 2] == "'":  # '' is an escaped quote
                i += 2
                continue
            return True
        i += 1
    return False


# ---------------------------------------------------------------- structuring
def _int(value: Any, _: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a whole number, found {_kind(value)}")
    return value


def _bool(value: Any, _: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, found {_kind(value)}")
    return value


def _str(value: Any, _: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, found {_kind(value)}")
    return str(value)


def _float(value: Any, _: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"expected a number, found {_kind(value)}")
    return float(value)


def _scalar_union(value: Any, _: Any) -> Any:
    if isinstance(value, bool | int | str):
        return value
    raise TypeError(f"expected a number, true/false or text, found {_kind(value)}")


def _settings(value: Any, _: Any) -> dict[str, Any]:
    """An optional rule's settings: numbers (bounded), true/false, text, or lists of text."""
    if not isinstance(value, dict):
        raise TypeError(f"expected a mapping, found {_kind(value)}")
    out: dict[str, Any] = {}
    for k, v in value.items():
        if isinstance(v, list):
            out[str(k)] = [str(x) for x in v]
        elif isinstance(v, int) and not isinstance(v, bool) and not -MAX_TABLE_NUMBER <= v <= MAX_TABLE_NUMBER:
            raise ValueError(f"setting '{shorten(str(k))}': expected a whole number from {-MAX_TABLE_NUMBER} to "
                             f"{MAX_TABLE_NUMBER}, found {_kind(v)}")
        elif isinstance(v, bool | int | str):
            out[str(k)] = v
        else:
            raise TypeError(f"setting '{shorten(str(k))}': expected a number, true/false, text or a list")
    return out


def _is_tuple(tp: Any) -> bool:
    return bool(typing.get_origin(tp) is tuple)


def _is_list(tp: Any) -> bool:
    return bool(typing.get_origin(tp) is list)


_SCALAR_UNION = int | bool | str
_SETTINGS_TYPE = dict[str, int | bool | str | list[str]]


def _strict_converter() -> cattrs.Converter:
    """A cattrs converter that takes nothing for what it is not: no number for text, no text for a list, values
    within their Range, ids that are slugs, no extra keys."""
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)

    def _annotated(value: Any, tp: Any) -> Any:
        base, *marks = typing.get_args(tp)
        if any(isinstance(mark, RulingRefRule) for mark in marks):
            return RulingRefRule.structure(value, base)
        if any(isinstance(mark, RulingRule) for mark in marks):
            text = RulingRule.written(value)
            if text is None:
                raise ValueError(f"expected a ruling's number (such as 7.3), found {_kind(value)}")
            return text
        out = conv.structure(value, base)
        for mark in marks:
            if isinstance(mark, Range) and not mark.low <= out <= mark.high:
                raise ValueError(f"expected a whole number from {mark.low} to {mark.high}, found {_kind(out)}")
            if isinstance(mark, IdRule) and not is_slug(out):
                raise ValueError(f"expected an id (lower-case letters and digits, in words joined by '-'), found "
                                 f"{_kind(out)}: {slug_problem(out)}")
        return out

    def _tuple(value: Any, tp: Any) -> Any:
        # cattrs would take any iterable: 'specialists: medic' became ('m', 'e', 'd', 'i', 'c')
        if not isinstance(value, list | tuple):
            raise TypeError(f"expected a list, found {_kind(value)}")
        return conv._structure_tuple(value, tp)

    def _list(value: Any, tp: Any) -> Any:  # the same for lists: 'answers: {u1: yes}' is no list of answers
        if not isinstance(value, list | tuple):
            raise TypeError(f"expected a list, found {_kind(value)}")
        (item,) = typing.get_args(tp) or (Any,)
        return [value_ if item is Any else conv.structure(value_, item) for value_ in value]

    conv.register_structure_hook_func(lambda t: hasattr(t, "__metadata__"), _annotated)  # Annotated[...]
    conv.register_structure_hook(int, _int)
    conv.register_structure_hook(bool, _bool)
    conv.register_structure_hook(str, _str)
    conv.register_structure_hook(float, _float)
    conv.register_structure_hook_func(_is_tuple, _tuple)
    conv.register_structure_hook_func(_is_list, _list)
    conv.register_structure_hook_func(lambda t: t == _SCALAR_UNION, _scalar_union)
    conv.register_structure_hook_func(lambda t: t == _SETTINGS_TYPE, _settings)
    return conv


def _kind(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {shorten(str(value), 20)}"
    if isinstance(value, str):  # one line of it at most (a file of plain text reads as one long text)
        return f"the text {shorten(value)!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, AbstractSet):  # (YAML's !!set)
        return "a set"
    if isinstance(value, tuple):  # (YAML's !!pairs, !!omap)
        return "a pair" if len(value) == 2 else "a list"
    return f"a value of another type ({shorten(str(value), 30)})"


CONVERTER = _strict_converter()


def _plain(node: Any) -> Any:
    """ruamel nodes to plain Python, with YAML keys renamed to attribute names."""
    if isinstance(node, dict):
        return {key_to_attr(str(k)) if isinstance(k, str) else k: _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def _walk(exc: BaseException, path: list[str | int]) -> Iterator[tuple[list[str | int], str, bool]]:
    """(path, message, points-at-key) for every leaf error in a cattrs exception tree."""
    if isinstance(exc, ForbiddenExtraKeysError):
        for extra in sorted(exc.extra_fields, key=str):  # YAML keys may be numbers too
            yield [*path, extra], "unknown key", True
        return
    if isinstance(exc, ClassValidationError | IterableValidationError):
        for sub in exc.exceptions:
            step: str | int | None = None
            for note in getattr(sub, "__notes__", []):
                if isinstance(note, AttributeValidationNote):
                    step = note.name
                elif isinstance(note, IterableValidationNote):
                    step = note.index
            yield from _walk(sub, [*path, step] if step is not None else path)
        return
    if isinstance(exc, KeyError):
        yield path, "missing", True
        return
    message = str(exc)
    if "not in literal" in message:
        yield path, "literal", False
        return
    yield path, message, False


def _allowed_keys(cls: Any, path: Sequence[str | int]) -> list[str]:
    """The YAML keys allowed at ``path`` (for "did you mean" on unknown keys)."""
    current: Any = cls
    for step in path:
        current = _unwrap(current)
        if attrs.has(current) and isinstance(step, str):
            fields = {f.name: f for f in attrs.fields(current)}
            hints = typing.get_type_hints(current)
            if step not in fields:
                return []
            current = hints[step]
        elif isinstance(step, str) and typing.get_origin(current) in (dict, Mapping):
            current = typing.get_args(current)[-1]  # (a mapping of names to records: 'sectors: {s1: {...}}')
        elif isinstance(step, int):
            current = _unwrap(current)
    current = _unwrap(current)
    if attrs.has(current):
        return [attr_to_key(f.name) for f in attrs.fields(current)]
    return []


def _unwrap(tp: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(tp) if a is not type(None)]
        return _unwrap(members[0]) if len(members) == 1 else tp
    if origin is tuple:
        items = typing.get_args(tp)
        return _unwrap(items[0]) if items else tp
    return tp


def _field_type(cls: Any, path: Sequence[str | int]) -> Any:
    current: Any = cls
    for step in path:
        current = _unwrap(current)
        if attrs.has(current) and isinstance(step, str):
            hints = typing.get_type_hints(current)
            current = hints.get(step, Any)
        elif isinstance(step, str) and typing.get_origin(current) in (dict, Mapping):
            current = typing.get_args(current)[-1]
        elif isinstance(step, int):
            current = _unwrap(current)
    return current


def _literal_choices(tp: Any) -> list[str]:
    tp_args = typing.get_args(tp)
    if typing.get_origin(tp) is typing.Literal:
        return [str(a) for a in tp_args]
    out: list[str] = []
    for a in tp_args:
        out += _literal_choices(a)
    return out


def empty_problem(doc: YamlDoc) -> Diagnostic | None:
    """SCHEMA001 for a file that holds nothing (empty, comments only, or a bare null), worded alike wherever a YAML
    file is read (content, scenario, set-up and sweep files); None for a file that holds something."""
    return Diagnostic("SCHEMA001", "the file is empty", doc.file, 1, 1) if doc.data is None else None


def structure(doc: YamlDoc, node: Any, cls: type[T], base_path: Sequence[str | int] = ()) -> tuple[
        T | None, list[Diagnostic]]:
    """Structure ``node`` (part of ``doc``) into ``cls``; every error located in the file."""
    empty = empty_problem(doc) if node is doc.data and not base_path else None
    if empty is not None:
        return None, [empty]
    if not isinstance(node, dict):
        line, col = position(doc.data, list(base_path))
        found = _kind(_plain(node)) if not isinstance(node, str) else "text"  # never a file's text: one line at most
        return None, [Diagnostic("SCHEMA001", f"expected a mapping, found {found}", doc.file, line, col,
                                 hint="a content file is YAML: keys and values ('id: medic')" if found == "text"
                                 else None)]
    try:
        return CONVERTER.structure(_plain(node), cls), []
    except Exception as exc:
        diags: list[Diagnostic] = []
        for path, message, at_key in _walk(exc, []):
            line, col = position(node, path, key=at_key)
            name = attr_to_key(str(path[-1])) if path and isinstance(path[-1], str) else None
            where = f"'{name}'" if name else "value"
            if len(path) >= 2 and isinstance(path[-1], int) and isinstance(path[-2], str):
                where = f"item {path[-1] + 1} of '{attr_to_key(path[-2])}'"
            if message == "unknown key":
                allowed = _allowed_keys(cls, path[:-1])
                hint = did_you_mean(_written_key(node, path)[:100], allowed) or (
                    "allowed keys: " + ", ".join(allowed) if allowed else None)
                written = _written_key(node, path)
                diags.append(Diagnostic("SCHEMA002", f"unknown key '{shorten(written)}'", doc.file, line, col,
                                        hint=hint, width=len(written)))
            elif message == "missing":
                diags.append(Diagnostic("SCHEMA003", f"missing required key {where}", doc.file, line, col))
            elif message == "literal":
                choices = _literal_choices(_field_type(cls, path))
                value = _lookup(node, path)
                hint = did_you_mean(str(value)[:100], choices) or (
                    "one of: " + ", ".join(choices) if choices else None)
                code = "SCHEMA005" if name == "provenance" else "SCHEMA004"
                diags.append(Diagnostic(code, f"{where}: {shorten(repr(value))} is not allowed", doc.file, line, col,
                                        hint=hint))
            else:
                msg = message
                value = _lookup(node, path)
                hint = slug_hint(value) if msg.startswith("expected an id") and isinstance(value, str) else None
                if msg.startswith("expected text, found") and isinstance(value, bool | int | float):
                    hint = ("YAML reads this as true or false: to write text, quote it (\"yes\")"
                            if isinstance(value, bool) else
                            f"YAML reads this as a number: to write text, quote it (\"{value}\")")
                if msg.startswith("expected"):
                    msg = f"{where}: {msg}"
                elif "has no attribute" in msg:
                    msg = f"{where}: expected a mapping, found {_kind(_plain(_lookup(node, path)))}"
                elif "not iterable" in msg or "object is not" in msg:
                    wanted = _unwrap(_field_type(cls, path))
                    shape = "a mapping" if attrs.has(wanted) or typing.get_origin(wanted) in (dict, Mapping) \
                        else "a list"
                    msg = f"{where}: expected {shape}, found {_kind(_plain(_lookup(node, path)))}"
                elif "'NoneType'" in msg or "got None" in msg:
                    msg = f"{where}: a value is required"
                else:
                    msg = f"{where}: invalid value ({shorten(msg)})"
                diags.append(Diagnostic("SCHEMA004", msg, doc.file, line, col, hint=hint))
        if not diags:
            line, col = position(node, [])
            diags.append(Diagnostic("SCHEMA004", f"invalid content ({shorten(str(exc))})", doc.file, line, col))
        return None, diags


def salvage(node: Any, cls: type[T], stand_ins: Mapping[str, Any] | None = None) -> T | None:
    """What of ``node`` structures into ``cls`` once every part :func:`structure` found wrong is left out (a key
    dropped; an item of a list of mappings made an empty mapping; a list of values with a wrong one dropped whole),
    for a caller that, having told those problems, checks the rest too and tells every problem at once. A key of
    the top level that is required, and missing or left out, takes its value in ``stand_ins`` (by attribute name,
    ``stands_in_for``) when there is one. None when nothing can be salvaged (not a mapping, a required key missing
    with no stand-in)."""
    return salvaged(node, cls, stand_ins)[0]


def salvaged(node: Any, cls: type[T], stand_ins: Mapping[str, Any] | None = None) -> tuple[T | None, frozenset[str]]:
    """What :func:`salvage` returns, and the keys of the top level (by attribute name) it did not take as written:
    left out, wholly or in part, or given a stand-in. A check that reads one of them is left to the problem told of
    it (a cost that is wrong is not also missing)."""
    if not isinstance(node, dict):
        return None, frozenset()
    data = _plain(node)
    stand_ins = stand_ins or {}
    changed: set[str] = set()
    for _ in range(5):  # (one pass finds every error cattrs reports; a dropped part may uncover another)
        try:
            return CONVERTER.structure(data, cls), frozenset(changed)
        except Exception as exc:  # (cattrs's errors, as structure reads them)
            found = list(_walk(exc, []))
            missing = [path for path, message, _ in found if message == "missing"]
            keys = [key for key, *below in missing if isinstance(key, str) and key in stand_ins and not below]
            if not found or len(keys) < len(missing):
                return None, frozenset()
            changed.update(str(path[0]) for path, _, _ in found if path)
            for key in keys:  # (a stand-in that is itself wrong is dropped again: None after the passes)
                data[key] = stand_ins[key]
            if not all(_drop(data, path) for path, message, _ in found if message != "missing"):
                return None, frozenset()
    return None, frozenset()


def _drop(data: Any, path: Sequence[str | int]) -> bool:
    """Leave out the part of plain ``data`` at ``path`` (see :func:`salvage`); False when it cannot be."""
    if not path:
        return False
    parent = data
    for step in path[:-1]:
        there = (isinstance(parent, dict) and step in parent) or (
            isinstance(parent, list) and isinstance(step, int) and 0 <= step < len(parent))
        if not there:
            return True  # (gone with a part dropped before)
        parent = parent[step]
    last = path[-1]
    if isinstance(parent, dict):
        parent.pop(last, None)
        return True
    if isinstance(parent, list) and isinstance(last, int) and 0 <= last < len(parent):
        if any(isinstance(other, dict) for other in parent):
            parent[last] = {}
            return True
        return _drop(data, path[:-1])
    return True


def _written_key(node: Any, path: Sequence[str | int]) -> str:
    """The key at the end of ``path`` as the file writes it (the path names attributes: 'def' is 'defense', '_'
    is '-')."""
    parent = _lookup(node, path[:-1])
    last = path[-1]
    if isinstance(parent, dict) and isinstance(last, str):
        for key in parent:
            if isinstance(key, str) and key_to_attr(key) == last:
                return key
    return str(last)


def _lookup(node: Any, path: Sequence[str | int]) -> Any:
    current = node
    for step in path:
        if isinstance(current, dict) and isinstance(step, str):
            key = attr_to_key(step) if attr_to_key(step) in current else step
            current = current.get(key)
        elif isinstance(current, list) and isinstance(step, int) and 0 <= step < len(current):
            current = current[step]
        else:
            return None
    return current

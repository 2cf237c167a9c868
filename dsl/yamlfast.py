"""The fast way to read a well-formed YAML file: libyaml's C parser, ruamel's round-trip constructor.

ruamel.yaml's round-trip loader gives every mapping and list its line and column (what every diagnostic points
at), but its scanner and parser are pure Python and took nearly nine tenths of loading the bundled content.
libyaml (PyYAML's C parser) reads the same events some twenty times faster. This module composes those events
into ruamel's own nodes, with the same tag resolution (YAML 1.2, ruamel's resolver) and the same marks, and
hands them to ruamel's round-trip constructor: the data, its types and its positions are those the pure-Python
loader gives (tests/test_yamlfast.py compares the two on every YAML file of the repository).

It reads only what it is sure of. Anything else raises :class:`NotFast` and the caller reads the file with
ruamel alone, which gives the canonical diagnostic: a syntax error, a duplicate key, an explicit tag or
``%YAML`` directive, several documents, an empty value (ruamel places it elsewhere), an undefined alias, more
aliases than :data:`MAX_YAML_ALIASES`, an alias inside the value it names, a merge key ``<<``, nesting deeper
than :data:`MAX_NESTING`. libyaml's parser keeps its own stacks (no recursion), so a hostile file cannot exhaust
the C stack; its size is bounded before it gets here (dsl/sandbox.py).
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import StreamMark, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ddaydice.dsl.limits import MAX_NESTING, MAX_YAML_ALIASES

try:  # PyYAML with libyaml: the C parser only (nothing is constructed by PyYAML)
    import yaml as _pyyaml
    from yaml._yaml import CParser as _CParser

    AVAILABLE = True
except ImportError:  # pragma: no cover - a platform without libyaml's wheels reads with ruamel alone
    AVAILABLE = False


# Resolved tags of plain scalars, shared by every file read (a YAML 1.2 resolution depends on the text alone);
# emptied when it grows past a bound.
_TAGS: dict[tuple[str, tuple[bool, bool]], Any] = {}
_MAX_TAGS = 100_000


#: The tag of YAML 1.1's merge key ``<<``, which content does not use (dsl/yamlsrc.py tells why, at its place).
MERGE_TAG = "tag:yaml.org,2002:merge"


class NotFast(Exception):
    """The file is not one the fast path is sure to read as ruamel does: read it with ruamel."""


def load(text: str, file: str, yaml: YAML) -> Any:
    """The data of ``text`` as ``yaml`` (a round-trip ruamel loader, duplicate keys refused) would give it."""
    if not AVAILABLE:
        raise NotFast("no libyaml")
    root = _compose(text, file, yaml)
    if root is None:
        return None
    try:
        return yaml.constructor.construct_document(root)
    except _pyyaml.YAMLError as exc:  # pragma: no cover - ruamel's errors are not PyYAML's
        raise NotFast(str(exc)) from exc
    except YAMLError as exc:  # a duplicate key, found by ruamel's constructor
        raise NotFast(str(exc)) from exc


def _compose(text: str, file: str, yaml: YAML) -> Node | None:
    resolver = yaml.resolver
    anchors: dict[str, Node] = {}
    if len(_TAGS) > _MAX_TAGS:
        _TAGS.clear()
    tags = _TAGS
    aliases = 0
    documents = 0
    root: Node | None = None
    stack: list[list[Any]] = []  # [node, key waiting for its value (mappings)]

    def mark(m: Any) -> StreamMark:
        return StreamMark(file, m.index, m.line, m.column)

    def attach(node: Node) -> None:
        nonlocal root
        if not stack:
            root = node
            return
        frame = stack[-1]
        parent = frame[0]
        if isinstance(parent, SequenceNode):
            parent.value.append(node)
        elif frame[1] is None:
            frame[1] = node
        else:
            parent.value.append((frame[1], node))
            frame[1] = None

    parser: Any = _CParser(text)
    try:
        while parser.check_event():
            event = parser.get_event()
            kind = type(event)
            if kind is _pyyaml.ScalarEvent:
                if event.tag is not None and event.tag != "!":
                    raise NotFast("an explicit tag")
                if event.start_mark.index == event.end_mark.index:
                    raise NotFast("an empty value")  # ruamel places it at the next token, libyaml where it is
                key = (event.value, event.implicit)
                tag = tags.get(key)
                if tag is None:  # ruamel's resolver is a chain of regular expressions: once per distinct scalar
                    tag = tags[key] = resolver.resolve(ScalarNode, event.value, event.implicit)
                if tag == MERGE_TAG:
                    raise NotFast("a merge key")
                node: Node = ScalarNode(tag, event.value, mark(event.start_mark), mark(event.end_mark),
                                        style=event.style, anchor=event.anchor)
                if event.anchor is not None:
                    anchors[event.anchor] = node
                attach(node)
            elif kind is _pyyaml.MappingStartEvent or kind is _pyyaml.SequenceStartEvent:
                if event.tag is not None and event.tag != "!":
                    raise NotFast("an explicit tag")
                if len(stack) + 1 >= MAX_NESTING:
                    raise NotFast("deep")
                cls = MappingNode if kind is _pyyaml.MappingStartEvent else SequenceNode
                tag = resolver.resolve(cls, None, event.implicit)
                node = cls(tag, [], mark(event.start_mark), None, flow_style=event.flow_style, anchor=event.anchor)
                if event.anchor is not None:
                    anchors[event.anchor] = node
                stack.append([node, None])
            elif kind is _pyyaml.MappingEndEvent or kind is _pyyaml.SequenceEndEvent:
                node = stack.pop()[0]
                node.end_mark = mark(event.end_mark)
                attach(node)
            elif kind is _pyyaml.AliasEvent:
                aliases += 1
                named = anchors.get(event.anchor)
                if aliases > MAX_YAML_ALIASES or named is None or named.end_mark is None:  # (None: still open)
                    raise NotFast("aliases: too many, undefined, or inside the value they name")
                attach(named)
            elif kind is _pyyaml.DocumentStartEvent:
                documents += 1
                if documents > 1 or event.version is not None or event.tags:
                    raise NotFast("a directive or several documents")
    except _pyyaml.YAMLError as exc:
        raise NotFast(str(exc)) from exc
    finally:
        parser.dispose()
    return root

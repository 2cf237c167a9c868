"""The language reference (``docs/dsl-reference.md``), generated from the registry of words and the rules.

Every word of :mod:`ddaydice.dsl.words` is listed with its role, its forms, its
summary, an example and the example's English, rendered through the real
parser, checker and renderer against the bundled content's vocabulary; the names
the rules define (values, permissions, faces, resources, RWB bonuses, tiers,
phases) come from the bundled ``rules/``. ``scripts/gen_dsl_reference.py``
writes the page; a test keeps the committed page equal to :func:`generate`.

A word whose registry entry has no example gets a made-up one of the simplest
form its signature allows; a fragment (a condition, a bare action) is checked
inside the smallest clause that holds it, and only its own part is rendered.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal

import attrs

from ddaydice.dsl import ast, words
from ddaydice.dsl.checker import Context, check_effect
from ddaydice.dsl.diagnostics import ContentError, DDayError, Diagnostic
from ddaydice.dsl.loader import Content, load
from ddaydice.dsl.parser import SourceMap, parse_effect
from ddaydice.dsl.places import bundled_root
from ddaydice.dsl.render import Renderer
from ddaydice.dsl.vocab import Vocabulary
from ddaydice.dsl.words.events import POINTS

Part = Literal["effect", "actions", "condition"]

ROLES: tuple[tuple[words.Role, str, str], ...] = (
    ("action", "Actions", "Things that happen at once, in a trigger (`on EVENT: ...`) or a use (`use: ...`). "
     "A value or permission changed inside actions needs a duration (`def -2 this turn`)."),
    ("modifier", "Modifiers", "Standing changes to a permission or a rule while their source is in play. Every value "
     "of the rules (see *Values*) is a modifier too: `def -2`, `locked-dice = 1`."),
    ("event", "Events", "What a trigger listens for: `on EVENT [if ...]: actions`."),
    ("moment", "Moments", "When a use may be played: `use before|after|during|when MOMENT: actions`. A use is "
     "offered at the moments of the table below and no other: a word (a moment, an event, a phase) in a window not "
     "listed there is an error (`DSL121`), for the turn would never offer the use. Without a window, a use is "
     "offered at every moment of the turn that offers uses (Phases 1, 3, 4 and 5)."),
    ("predicate", "Conditions", "What `if` and `unless` test; numbers are compared (`count skull >= 4`), the others "
     "are true or false. Combine them with `and`, `or`, `not` and parentheses."),
    ("counter", "Counters", "What `per` multiplies by: `gain 3 soldiers per locked skull`."),
    ("target", "Targets", "Who a clause or an action concerns: a scope (`for all units: ...`) or a recipient "
     "(`gain 2 courage to another unit`)."),
)

# what a made-up example passes for each kind of parameter, when the vocabulary has it
_PREFERRED = {"amount": "2", "count": "1", "change": "-1", "resource": "soldiers", "face": "skull", "colour": "red",
              "filter": "unlocked", "rwb": "battle-cry", "query": "def", "flag": "stay", "ignorable": "landmines",
              "tier": "sectors", "kind": "item", "counter": "skull", "specialist": "medic", "item": "bazooka",
              "vehicle": "jeep", "card": "medic", "award": "", "sector": "s1", "attribute": "shelter",
              "table": "weather", "word": "solitaire"}


@attrs.frozen
class Example:
    """A word's example: what the reader sees, the clause it was checked in, and its English."""

    text: str
    checked_as: str
    part: Part
    effect: ast.Effect
    english: str
    made_up: bool = False


class ExampleError(DDayError):
    """A registry example that does not check: a bug in the registry (dsl/words/)."""


def reference_content() -> Content:
    """The bundled base game with every bundled expansion, or an error with its diagnostics."""
    content, diags = load(bundled_root(), packs="all")
    if content is None:
        raise ContentError([d for d in diags if d.severity == "error"])
    return content


def _sample(kind: str, vocab: Vocabulary) -> str:
    preferred = _PREFERRED.get(kind, "")
    if kind in {"specialist", "item", "vehicle", "award", "card"}:
        pool = sorted(vocab.cards if kind == "card" else vocab.cards_of(kind))
        return preferred if preferred in pool else (pool[0] if pool else preferred or kind)
    if kind == "word" and vocab.options:
        return sorted(vocab.options)[0]
    return preferred or kind


def _made_up(spec: words.WordSpec, vocab: Vocabulary) -> str:
    sig = words.signatures(spec)[0]
    args: list[str] = []
    for param in sig.params:
        if param.optional:
            continue
        args.append(param.literals[0] if param.literals and not param.kinds else _sample(param.kinds[0], vocab))
    phrase = " ".join([spec.name, *args])
    match spec.role:
        case "event":
            return f"on {spec.name}: gain 1 star"
        case "moment":
            window = next((w for w in ("before", "after", "when") if f"'{w} {spec.name}" in spec.summary), "during")
            return f"use {window} {spec.name}: gain 1 star"
        case "predicate":
            number = isinstance(spec, words.PredicateWord) and spec.number
            return f"use if {phrase}{' >= 2' if number else ''}: gain 1 star"
        case "counter":
            return f"on final-tally: gain 1 star per {phrase}"
        case "target":
            return f"use: gain 1 star to {spec.name}"
        case "action":
            return f"use: {phrase}"
    return phrase


def _attempts(text: str) -> list[tuple[str, Part]]:
    """The clauses in which an example may be checked, simplest first."""
    if text.startswith(("if ", "unless ")):
        return [(f"forbid stay {text}", "condition")]
    return [(text, "effect"), (f"use: {text}", "actions")]


def _words_in(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*", text))


def _render(effect: ast.Effect, part: Part, renderer: Renderer) -> str:
    if part == "effect":
        return " ".join(renderer.lines(effect))
    body = effect.clauses[0].body
    if part == "condition" and isinstance(body, ast.Modifier):
        return renderer.condition(body.condition).strip()
    if part == "actions" and isinstance(body, ast.Use):
        text = renderer.actions(body.actions)
        return text[:1].upper() + text[1:] + "."
    raise AssertionError(part)


def example_of(spec: words.WordSpec, vocab: Vocabulary, renderer: Renderer) -> Example:
    """The word's example (its own, or a made-up one), checked and rendered; raises ExampleError if it fails."""
    text = spec.example or _made_up(spec, vocab)
    # names of a map (sectors, attributes, tables) exist only in a map: let the example's own words stand for them
    names = _words_in(text)
    map_vocab = vocab.for_map(names, names, names)
    problems: list[Diagnostic] = []
    for checked_as, part in _attempts(text):
        tree, diags = parse_effect(checked_as, SourceMap(f"<example of '{spec.name}'>"))
        if tree is None:
            problems += diags
            continue
        # a card's clause about its own price is checked on a card that is bought; any other on a Sector that any
        # word reaches (an example shows a word's form, wherever it acts: 'sacrifice self', 'on found')
        context = Context("item", bought=True) if isinstance(spec, words.ModifierWord) and spec.waiting \
            else Context("sector", owners=frozenset(words.OWNERS))
        checked, diags = check_effect(tree, map_vocab, context)
        if diags:
            problems += diags
            continue
        return Example(text, checked_as, part, checked, _render(checked, part, renderer), made_up=not spec.example)
    detail = "; ".join(f"{d.code} {d.message}" for d in problems)
    raise ExampleError(f"the example of '{spec.name}' ({spec.role}) does not check: {text!r}: {detail}")


# ---------------------------------------------------------------- the page
def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


def _table(head: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return [*out, ""]


def _anchor(role: str, name: str) -> str:
    return f"{role}-{name.replace(' ', '-')}"


def _forms(spec: words.WordSpec) -> list[str]:
    return [f"`{spec.name} {sig}`" if sig else f"`{spec.name}`" for sig in spec.signatures]


def _word_section(spec: words.WordSpec, example: Example) -> list[str]:
    out = [f'<a id="{_anchor(spec.role, spec.name)}"></a>', f"### `{spec.name}`", "",
           f"*{spec.role}* — {spec.summary}", ""]
    if any(spec.signatures):
        out += [("Forms: " if len(spec.signatures) > 1 else "Form: ") + " · ".join(_forms(spec)), ""]
    if spec.aliases:
        out += ["Also written: " + ", ".join(f"`{a}`" for a in spec.aliases), ""]
    out += _reach(spec)
    label = "Example (made up from the form)" if example.made_up else "Example"
    out += [f"{label}:", "", "```", example.text, "```", "", f"Reads: {example.english}", ""]
    if spec.before_after:
        out += [f"Before → after: {spec.before_after}", ""]
    return out


def generate(content: Content | None = None) -> str:
    """The whole reference page, as Markdown."""
    content = content or reference_content()
    vocab = content.vocab
    names = {cid: card.name for cid, card in content.cards.items()}
    renderer = Renderer(names)
    lines: list[str] = [
        "# The effect language: reference",
        "",
        "<!-- Generated by scripts/gen_dsl_reference.py from dsl/words/ and the bundled rules/. Do not edit: -->",
        "<!-- change the registry or the rules, then run `python scripts/gen_dsl_reference.py`. -->",
        "",
        "Every card, Sector attribute and rule of the game is written in this language. An effect is a list of",
        "clauses, one per line (or separated by `;`); `#` starts a comment. A clause is one of:",
        "",
        *_table(["form", "meaning"], [
            ("`[for TARGET:] VALUE CHANGE [if ...] [once per ...]`", "a standing change while the source is in play"),
            ("`[for TARGET:] forbid|allow|ignore|require|protect ... [if ...]`", "a standing permission or rule"),
            ("`on EVENT [if ...]: ACTIONS [once per ...]`", "a trigger: the actions happen when the event does"),
            ("`use [once per ...] [before|after|during|when MOMENT] [if ...]: ACTIONS`",
             "a deliberate play, when the player chooses"),
        ]),
        "ACTIONS are separated by `,`; `or` between two actions is the player's choice (the rulebook's OR). An",
        "action may end with a duration (`this turn`, `this phase`, `next turn`, `permanently`, `until EVENT`) and a "
        "recipient",
        "(`to another unit`). Words are lower case, with hyphens (`advance-cost`). Every name is checked: a",
        "misspelt word is an error with a suggestion, never silently ignored.",
        "",
        "## Contents",
        "",
        "- [Keywords](#keywords)",
        "- [Arguments](#arguments)",
    ]
    lines += [f"- [{title}](#{title.lower()})" for role, title, _ in ROLES if words.words(role)]
    lines += ["- [Names from the rules](#names-from-the-rules)", ""]
    lines += ["## Keywords", "", *_table(["keyword", "use"], [(f"`{k}`", v) for k, v in words.KEYWORDS.items()])]
    lines += [
        "## Arguments",
        "",
        "A form lists one parameter per argument: `kind` is one argument of that kind, `kind?` an optional one,",
        "`kind+` one or more, `kind*` any number, `'word'` that very word, and `a|b` either.",
        "",
        *_table(["kind", "what it accepts"], [(f"`{k}`", v) for k, v in words.PARAM_KINDS.items()]),
    ]
    for role, title, intro in ROLES:
        specs = [s for s in words.all_words() if s.role == role]
        if not specs:
            continue
        lines += [f"## {title}", "", intro, ""]
        if role == "moment":
            lines += _windows_table()
        lines += [" · ".join(f"[`{s.name}`](#{_anchor(role, s.name)})" for s in specs), ""]
        for spec in specs:
            lines += _word_section(spec, example_of(spec, vocab, renderer))
    lines += _rules_sections(content)
    return "\n".join(lines).rstrip("\n") + "\n"


def _owners(reaches: frozenset[str]) -> str:
    return " or ".join(text for owner, text in words.OWNERS.items() if owner in reaches)


def _reach(spec: words.WordSpec) -> list[str]:
    """What the word acts for, when not every owner (its record's ``reaches``: anywhere else it is DSL129)."""
    if isinstance(spec, words.EventWord | words.ModifierWord) and spec.reaches != words.EVERY_OWNER:
        how = "Heard" if isinstance(spec, words.EventWord) else "Read"
        return [f"{how} only on {_owners(spec.reaches)}; anywhere else it is `DSL129`.", ""]
    if isinstance(spec, words.ActionWord) and spec.self_reaches != words.EVERY_OWNER:
        return [f"With `self`: only on {_owners(spec.self_reaches)}; anywhere else it is `DSL129`.", ""]
    return []


def _windows_table() -> list[str]:
    """The windows a use may name, and where the turn offers each (``words.windows``, the list the engine reads)."""
    rows = []
    for (kind, moment), points in words.windows().items():
        where = "; ".join(dict.fromkeys(POINTS.get(p, "as the event is about to happen (the player may decline)")
                                        for p in points))
        reaches = words.window_reaches((kind, moment))
        if reaches != words.EVERY_OWNER:
            where += f"; only on {_owners(reaches)}, anywhere else it is `DSL129`"
        rows.append((f"`{kind} {moment}`", where))
    return _table(["window", "offered"], rows)


def _rules_sections(content: Content) -> list[str]:
    qr = content.queries
    numbers = [q for q in qr.queries if q.kind == "number"]
    flags = [q for q in qr.queries if q.kind == "flag"]

    def base(value: object) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    return [
        "## Names from the rules",
        "",
        "These names are data in the bundled `rules/` folders, the base game's and its expansions'; the checker",
        "reads them from there, not from the engine's code, so a new expansion can add more.",
        "",
        "### Values",
        "",
        "Numbers the engine computes and effects change (`rules/queries.yaml`): `def -2`, `locked-dice = 1`,",
        "`def -1d6`, `capacity = 1`. `base` is the rules' own value (`computed`: derived from the board or a card);",
        "`minimum` is the clamp applied after every change.",
        "",
        "A card's ruling about one of these values (or permissions) alone names it: `rulings: [{ruling: \"7.3\",",
        "query: mgf-dice}]` (`query:` one id or a list); `dday explain` shows the ruling under that query's steps",
        "only, where a plain number (`rulings: [\"7.3\"]`) shows under all that the card does. A query no",
        "`rules/queries.yaml` lists there, or a ruling's number that is none, is `LOAD013`.",
        "",
        *_table(["value", "what it is", "of", "base", "minimum"],
                [(f"`{q.id}`", q.text, q.subject, base(q.base), "" if q.minimum is None else q.minimum)
                 for q in numbers]),
        "### Permissions",
        "",
        "Yes-or-no rules (`rules/queries.yaml`), changed with `forbid` and `allow`.",
        "",
        *_table(["permission", "what it allows", "of", "by default"],
                [(f"`{q.id}`", q.text, q.subject, base(q.base)) for q in flags]),
        "### Things to ignore",
        "",
        "What `ignore` takes (`rules/queries.yaml`).",
        "",
        *_table(["name", "what is ignored"], [(f"`{ig.id}`", ig.text) for ig in qr.ignorables]),
        "### Dice faces and colours",
        "",
        f"Faces (`rules/dice.yaml`); `any` lets the player choose. Colours: "
        f"{', '.join(f'`{c}`' for c in content.dice.colours)} (`any-colour` lets the player choose).",
        "",
        *_table(["face", "name", "what it does"], [(f"`{f.id}`", f.name, f.text) for f in content.dice.faces]),
        "### Resources",
        "",
        *_table(["resource", "name", "also written"],
                [(f"`{r.id}`", r.name, ", ".join(f"`{a}`" for a in r.aliases)) for r in content.resources.resources]),
        "### RWB bonuses",
        "",
        "What `rwb` takes (`rules/rwb.yaml`): three identical results on dice of three colours.",
        "",
        *_table(["RWB", "name", "face", "what it gives", "effect"],
                [(f"`{r.id}`", r.name, r.face, r.text, f"`{r.effect.strip()}`") for r in content.rwb.rwb]),
        "### Precedence tiers",
        "",
        "Lowest first (`rules/precedence.yaml`): when two effects conflict, the higher tier wins, unless an",
        "effect names what it overrides (`protect`).",
        "",
        "What a tier marked *beyond the turn's limits* (`beyond-turn-limits: true`) grants, a Specialist recruited,",
        "an Item found or an Award drawn, is outside the game rules' limits per turn and counts toward none; so is",
        "what a kind of source marked so grants, whatever its tier: the RWB bonuses (`rules/rwb.yaml`), a kind of",
        "card a pack declares with the mark (`rules/kinds.yaml`) (docs/rulings.md 1.6, 2.5). A tier marked",
        "`asks-no-permission` acts where a `forbid` of a lower tier would stop another's find or re-roll: its actions",
        "ask no permission (ruling 7.5).",
        "",
        *_table(["tier", "name", "sources", "limits per turn", "permissions"],
                [(f"`{t.id}`", t.name, ", ".join(t.sources), "beyond the turn's limits" if t.beyond_turn_limits
                  else "held to them", "asks none" if t.asks_no_permission else "asked")
                 for t in content.precedence.tiers]),
        "### Phases",
        "",
        "The turn, in order (`rules/phases.yaml`); a phase id also names a moment (`use during purchase: ...`).",
        "",
        *_table(["phase", "name"], [(f"`{p.id}`", p.name) for p in content.phases.phases]),
    ]


# ------------------------------------------------------------- one entry
def entry(name: str, content: Content, renderer: Renderer | None = None) -> str | None:
    """The reference's entry for one name of the effect language, as Markdown (``dday lsp`` shows it on hover):
    the section of each word so named (its role, forms, summary, example and the example's English, as on the
    page), the keyword, and what the rules say of a value, permission, face, resource, RWB, tier or phase of
    that name. None if the language has no such name."""
    renderer = renderer or Renderer({cid: card.name for cid, card in content.cards.items()})
    out: list[str] = []
    for spec in words.all_words():
        if name == spec.name or name in spec.aliases:
            section = _word_section(spec, example_of(spec, content.vocab, renderer))
            out += [line for line in section if not line.startswith("<a id=")]
    for key, text in words.KEYWORDS.items():
        if name in key.replace("/", " ").split():
            out += [f"### `{key}`", "", f"*keyword* — {text}", ""]
    out += _rules_entry(name, content)
    return "\n".join(out).strip() or None


def _rules_entry(name: str, content: Content) -> list[str]:
    """What the rules say of a name: a value or permission (rules/queries.yaml), something to ignore, a face, a
    colour, a resource, an RWB bonus, a tier or a phase."""
    out: list[str] = []
    for q in content.queries.queries:
        if q.id == name:
            what = "value" if q.kind == "number" else "permission"
            base = str(q.base).lower() if isinstance(q.base, bool) else str(q.base)
            extra = f"; minimum {q.minimum}" if q.minimum is not None else ""
            out += [f"### `{q.id}`", "", f"*{what}* ({q.name or q.id}) — {q.text}", "",
                    f"Of: {q.subject}; base: {base}{extra} (rules/queries.yaml).", ""]
    for ig in content.queries.ignorables:
        if ig.id == name:
            out += [f"### `{ig.id}`", "", f"*something to ignore* (`ignore {ig.id}`) — {ig.text}", ""]
    for face in content.dice.faces:
        if face.id == name:
            out += [f"### `{face.id}`", "", f"*die face* ({face.name}) — {face.text}", ""]
    if name in content.dice.colours:
        out += [f"### `{name}`", "", "*die colour* (rules/dice.yaml)", ""]
    for res in content.resources.resources:
        if name == res.id or name in res.aliases:
            also = ", ".join(f"`{a}`" for a in res.aliases)
            out += [f"### `{res.id}`", "", f"*resource* ({res.name})" + (f"; also written {also}" if also else ""), ""]
    for rwb in content.rwb.rwb:
        if rwb.id == name:
            out += [f"### `{rwb.id}`", "", f"*RWB bonus* ({rwb.name}, three {rwb.face}) — {rwb.text}", "",
                    f"Effect: `{rwb.effect.strip()}`", ""]
    for tier in content.precedence.tiers:
        if tier.id == name:
            out += [f"### `{tier.id}`", "", f"*precedence tier* ({tier.name}): {', '.join(tier.sources)}", ""]
    for phase in content.phases.phases:
        if phase.id == name:
            out += [f"### `{phase.id}`", "", f"*phase* ({phase.name}); also a moment: `use during {phase.id}: ...`",
                    ""]
    return out

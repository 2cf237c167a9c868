"""The checker's footing: the effect's context, the diagnostics, the names each kind of argument takes, and a word's
arguments matched against its signatures (the forms the registry, :mod:`ddaydice.dsl.words`, gives it) in their
canonical spelling ('soldier' -> 'soldiers')."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

import attrs

from ddaydice.dsl import ast, words
from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean, unchecked_note
from ddaydice.dsl.vocab import Vocabulary

# A die roll written with dice that are not six-sided ('1d0', '2d8'): the number, then this word.
_OTHER_DIE = re.compile(r"d[0-9]+")
FILTER_WORDS = frozenset({"locked", "unlocked", "real", "any-roll"})
# parameter kinds whose arguments are names (of content or of the rules), not numbers
NAME_KINDS = frozenset(words.PARAM_KINDS) - {"amount", "count", "change", "counter"}
# The kinds of names that the cards define (names_of): left unchecked while a card file could not be read.
CARD_NAME_KINDS = frozenset({"specialist", "item", "vehicle", "award", "card", "tag"})


def _unknown_message(param: words.Param, name: str) -> str:
    if param.kinds:
        return f"unknown {' or '.join(param.kinds)} '{name}'"
    return f"expected {' or '.join(repr(lit) for lit in param.literals)}, found '{name}'"


@attrs.frozen
class Context:
    """Where an effect appears: a card of some kind, a sector of a map, a rule."""

    kind: str  # specialist, item, vehicle, award, sector, rule, ...
    # A kind of an expansion held like an Item (held-as item, or held by a Unit among its cards): used, never
    # standing; its name for messages ("Badge").
    used_only_as: str | None = None
    # A card that is bought (recruited or found for its cost): a clause may speak of its own price while it waits.
    bought: bool = False
    # A card of a kind drawn into play for every Unit (held by the game, never by a Unit).
    held_by_game: bool = False
    # What the effect's owner is, as the words' records say what they reach (words.OWNERS: 'sector', 'rule',
    # 'card', 'gained', 'drawn', 'specialist'); by default, from the kind (an expansion's kind: the loader says).
    owners: frozenset[str] = attrs.field()
    # The owner in a message ('a Specialist', 'a Badge'); by default, from the kind.
    label: str = attrs.field()

    @owners.default
    def _owners(self) -> frozenset[str]:
        return _OWNERS_OF.get(self.kind, frozenset({"card"}))

    @label.default
    def _label(self) -> str:
        return _LABELS.get(self.kind, f"a card of kind '{self.kind}'")

    def where(self) -> str | None:
        """What holds no card, in words ('a Sector', 'a rule'), or None for a card a Unit (or player) holds."""
        if self.held_by_game:
            return f"a card of kind '{self.kind}', in play for every Unit,"
        return _NOT_CARDS.get(self.kind)


_NOT_CARDS = {"sector": "a Sector", "rule": "a rule", "option": "an optional rule", "rwb": "an RWB bonus"}
_LABELS = {**_NOT_CARDS, "specialist": "a Specialist", "item": "an Item", "vehicle": "a Vehicle", "award": "an Award"}
_GAINED = frozenset({"card", "gained"})
_OWNERS_OF = {"sector": frozenset({"sector"}), "rule": frozenset({"rule"}), "option": frozenset({"rule"}),
              "rwb": frozenset({"rule"}), "specialist": _GAINED | {"specialist"}, "item": _GAINED,
              "vehicle": _GAINED, "award": _GAINED}


class ArgumentChecks:
    """The diagnostics found so far, what the content defines, and each word's arguments against its signatures."""

    def __init__(self, vocab: Vocabulary, context: Context) -> None:
        self.v = vocab
        self.ctx = context
        self.diags: list[Diagnostic] = []
        self.names: list[Diagnostic] = []  # those of them that say a name is unknown (a clause mended: check_names)
        self.heard: ast.Word | None = None  # the event the clause being checked answers ('on EVENT')

    # -------------------------------------------------------------- helpers
    def err(self, code: str, message: str, pos: ast.Pos, hint: str | None = None, *, name: bool = False) -> None:
        """Report a mistake (``name``: a name that is unknown, a check that holds of a word whatever its clause)."""
        found = Diagnostic(code, message, pos.file, pos.line, pos.column, hint=hint, width=pos.width)
        self.diags.append(found)
        if name:
            self.names.append(found)

    def optional_rules(self) -> frozenset[str]:
        return self.v.options

    def faces(self) -> set[str]:
        return set(self.v.faces) | set(self.v.face_aliases)

    def tags(self) -> frozenset[str]:
        return self.v.tags

    def event_heard(self) -> tuple[ast.Word, words.EventWord | None] | None:
        return (self.heard, words.event(self.heard.name)) if self.heard is not None else None

    def pending_events(self) -> tuple[str, ...]:
        return tuple(e.name for e in words.words("event").values() if isinstance(e, words.EventWord) and e.pending)

    def unknown(self, what: str, word: ast.Word, pool: Iterable[str], code: str = "DSL102") -> None:
        pool = list(pool)
        hint = did_you_mean(word.name, pool)
        if hint is None and pool and len(pool) <= 12:
            hint = "one of: " + ", ".join(sorted(pool))
        self.err(code, f"unknown {what} '{word.name}'", word.pos, hint, name=True)

    # ---------------------------------------------------------------- kinds
    def names_of(self, kind: str) -> set[str]:
        v = self.v
        match kind:
            case "resource":
                return set(v.resources)
            case "face":
                return set(v.faces) | set(v.face_aliases) | {"any"}
            case "colour":
                return set(v.colours) | {"any-colour"}
            case "filter":
                return set(v.colours) | set(v.faces) | set(v.face_aliases) | FILTER_WORDS
            case "specialist" | "item" | "vehicle" | "award":
                return v.cards_of(kind)
            case "card":
                return set(v.cards)
            case "rwb":
                return set(v.rwbs)
            case "query":
                return v.numbers()
            case "flag":
                return v.flags()
            case "ignorable":
                return set(v.ignorables)
            case "tier":
                return set(v.tiers)
            case "attribute":
                return set(v.attributes)
            case "table":
                return set(v.tables)
            case "sector":
                return set(v.sectors)
            case "kind":
                return {"specialist", "item", "vehicle", "award"} | set(v.kinds)
            case "deck":
                return set(v.decks)
            case "tag":
                return set(v.tags)
        return set()

    def canonical(self, kind: str, name: str) -> str:
        if kind == "resource":
            return self.v.resources.get(name, name)
        if kind in {"face", "filter"}:
            return self.v.face_aliases.get(name, name)
        return name

    def arg_fits(self, arg: ast.Arg, kind: str) -> bool:
        match kind:
            case "amount":
                return (isinstance(arg, ast.Number) or (isinstance(arg, ast.Dice) and arg.sign == 0)
                        or (isinstance(arg, ast.Word) and arg.name == "all"))
            case "count":
                return isinstance(arg, ast.Number)
            case "change":
                return isinstance(arg, ast.Signed | ast.Assign) or (isinstance(arg, ast.Dice) and arg.sign != 0)
            case "word":
                return isinstance(arg, ast.Word)
        return isinstance(arg, ast.Word) and (arg.name in self.names_of(kind) or self.unread_card(kind, arg))

    def unread_card(self, kind: str, arg: ast.Word) -> bool:
        """Whether ``arg``, a name the content does not define, may be a card (or a card's tag) of a card file that
        could not be read: it is then taken as one, unchecked, and noted (loading/reading.py fold_unchecked)."""
        if not self.v.cards_unread or kind not in CARD_NAME_KINDS or self.known_name(arg.name):
            return False
        pos = arg.pos
        self.diags.append(unchecked_note(arg.name, pos.file, pos.line, pos.column))
        return True

    def describe(self, arg: ast.Arg) -> str:
        match arg:
            case ast.Number(value=n):
                return f"the number {n}"
            case ast.Signed(value=n):
                return f"the change {n:+d}"
            case ast.Dice(count=c, sign=s):
                return f"the die roll {'-' if s < 0 else '+' if s > 0 else ''}{c}d6"
            case ast.Assign():
                return "an assignment ('= ...')"
            case ast.Word(name=n):
                return f"'{n}'"

    def match_signature(
        self, sig: words.Signature, args: tuple[ast.Arg, ...]
    ) -> tuple[list[tuple[str, ast.Pos, str, str | None]], tuple[ast.Arg, ...]]:
        """Errors (code, pos, message, hint) matching args to a signature, and canonical args."""
        errors: list[tuple[str, ast.Pos, str, str | None]] = []
        out: list[ast.Arg] = []
        i = 0
        for param in sig.params:
            taken = 0
            while i < len(args):
                arg = args[i]
                lit_ok = isinstance(arg, ast.Word) and arg.name in param.literals
                kind = next((k for k in param.kinds if self.arg_fits(arg, k)), None)
                if not lit_ok and kind is None:
                    break
                if kind is not None and isinstance(arg, ast.Word) and not lit_ok:
                    arg = attrs.evolve(arg, name=self.canonical(kind, arg.name))
                out.append(arg)
                i += 1
                taken += 1
                if not param.repeat:
                    break
            if taken == 0 and not param.optional:
                want = " or ".join([*(f"'{lit}'" for lit in param.literals), *param.kinds])
                if i < len(args):
                    arg = args[i]
                    pool: set[str] = set(param.literals)
                    for k in param.kinds:
                        pool |= self.names_of(k)
                    hint = did_you_mean(arg.name, pool) if isinstance(arg, ast.Word) else None
                    expected = "expected " + "; ".join(
                        [*(f"'{lit}'" for lit in param.literals),
                         *(words.PARAM_KINDS.get(k, k) for k in param.kinds)])
                    # a name the content does not define at all is unknown; a name of another kind is misplaced
                    count = args[i - 1] if i > 0 else None
                    if isinstance(arg, ast.Word) and isinstance(count, ast.Number) \
                            and _OTHER_DIE.fullmatch(arg.name):  # '1d0', '2d8': dice of another number of sides
                        roll = f"{count.value}{arg.name}"
                        errors.append(("DSL102", attrs.evolve(count.pos, width=len(roll)),
                                       f"'{roll}' is no die roll",
                                       "the dice are six-sided: a roll is written 1d6, 2d6, ... (-1d6 in a change)"))
                    elif isinstance(arg, ast.Word) and (hint is not None or (
                            any(k in NAME_KINDS for k in param.kinds) and not self.known_name(arg.name))):
                        if hint is None:
                            hint = "one of: " + ", ".join(sorted(pool)) if 0 < len(pool) <= 12 else expected
                        errors.append(("DSL102", arg.pos, _unknown_message(param, arg.name), hint))
                    else:
                        errors.append(("DSL104", arg.pos, f"expected {want}, found {self.describe(arg)}",
                                       hint or expected))
                    return errors, tuple(out)
                errors.append(("DSL103", ast.NOWHERE, f"missing {want}", None))
                return errors, tuple(out)
        if i < len(args):
            extra = args[i]
            if isinstance(extra, ast.Word):
                # a misspelt optional word ('any-rol', 'redd') reads better as unknown than as extra
                for param in sig.params:
                    pool = set(param.literals)
                    for k in param.kinds:
                        pool |= self.names_of(k)
                    hint = did_you_mean(extra.name, pool)
                    if hint:
                        errors.append(("DSL102", extra.pos, _unknown_message(param, extra.name), hint))
                        return errors, tuple(out)
            errors.append(("DSL103", extra.pos, f"{self.describe(extra)} is one argument too many", None))
        return errors, tuple(out)

    def known_name(self, name: str) -> bool:
        """Whether content or the registry defines ``name`` as anything at all."""
        return any(name in self.names_of(k) for k in NAME_KINDS) or any(
            words.lookup(role, name) is not None for role in ("action", "modifier", "event", "moment", "predicate"))

    def check_args(self, verb: ast.Word, spec: words.WordSpec, args: tuple[ast.Arg, ...],
                   stmt_pos: ast.Pos) -> tuple[ast.Arg, ...]:
        best: tuple[list[tuple[str, ast.Pos, str, str | None]], tuple[ast.Arg, ...]] | None = None
        for sig in words.signatures(spec):
            errors, canon = self.match_signature(sig, args)
            if not errors:
                return canon
            if best is None or len(canon) > len(best[1]):
                best = (errors, canon)
        assert best is not None
        reordered = self.reordered(spec, args)
        for code, pos, message, found_hint in best[0]:
            where = pos if pos is not ast.NOWHERE else stmt_pos
            hint = found_hint
            if code == "DSL104" and reordered is not None:
                hint = f"the words are in the wrong order: '{verb.name} {reordered}'"
            if code == "DSL103":
                forms = " | ".join(f"{verb.name} {s}".strip() for s in spec.signatures)
                hint = hint or f"the form is: {forms}"
            self.err(code, f"{verb.name}: {message}", where, hint, name=code == "DSL102")
        return args

    def reordered(self, spec: words.WordSpec, args: tuple[ast.Arg, ...]) -> str | None:
        """The arguments in an order some form of the word takes, when they are only out of order ('gain soldiers
        3' -> '3 soldiers')."""
        if not 1 < len(args) <= 4:
            return None
        for order in itertools.permutations(args):
            if order != args and any(not self.match_signature(sig, order)[0] for sig in words.signatures(spec)):
                return " ".join(ast.arg_dsl(a) for a in order)
        return None

"""Every effect of the content, once all is read: the vocabulary the rules files give, and each effect (of a rule, a
side, an RWB, an optional rule, a card, a map's sectors, attributes and rules) parsed, checked, rendered in English
and compiled."""

from __future__ import annotations

from typing import Any

from ddaydice.dsl import ast, schema
from ddaydice.dsl.checker import Context, check_effect, check_names
from ddaydice.dsl.compile import CompiledEffect, Compiler, EffectSource
from ddaydice.dsl.loading.content import tier_of
from ddaydice.dsl.loading.reading import Builder
from ddaydice.dsl.mending import mend_lines, parse_good_lines
from ddaydice.dsl.parser import parse_effect
from ddaydice.dsl.render import Renderer
from ddaydice.dsl.vocab import QueryInfo, Vocabulary
from ddaydice.dsl.yamlsrc import YamlDoc, scalar_source


def vocabulary(b: Builder) -> Vocabulary | None:
    need = ["dice.yaml", "resources.yaml", "precedence.yaml", "phases.yaml", "queries.yaml", "rwb.yaml"]
    if any(n not in b.rules for n in need):
        return None
    dice: schema.DiceRules = b.rules["dice.yaml"]
    res: schema.ResourceRules = b.rules["resources.yaml"]
    prec: schema.PrecedenceRules = b.rules["precedence.yaml"]
    phases: schema.PhaseRules = b.rules["phases.yaml"]
    qr: schema.QueryRules = b.rules["queries.yaml"]
    rwb: schema.RwbRules = b.rules["rwb.yaml"]
    kinds: schema.KindRules | None = b.rules.get("kinds.yaml")
    sides: schema.SideRules | None = b.rules.get("sides.yaml")
    side_colours = {c for d in (sides.sides if sides else ()) for c in d.colours}
    resources_map: dict[str, str] = {}
    for r in res.resources:
        resources_map[r.id] = r.id
        for alias in r.aliases:
            resources_map[alias] = r.id
    queries = {}
    for q in qr.queries:
        base: int | bool | None
        if q.base == "computed":
            base = None
        elif q.base == "unlimited":
            base = 10**9
        else:
            base = q.base if not isinstance(q.base, str) else None
        queries[q.id] = QueryInfo(q.id, q.kind, base, q.minimum, q.subject, q.text, q.name, q.used)
    for ig in qr.ignorables:
        queries[f"ignore-{ig.id}"] = QueryInfo(f"ignore-{ig.id}", "flag", False, None, "unit", ig.text)
    return Vocabulary(
        faces=frozenset(f.id for f in dice.faces),
        colours=frozenset(dice.colours) | side_colours,
        resources=resources_map,
        queries=queries,
        ignorables=frozenset(ig.id for ig in qr.ignorables),
        rwbs=frozenset(r.id for r in rwb.rwb),
        tiers=tuple(t.id for t in prec.tiers),
        phases=tuple(p.id for p in phases.phases),
        cards={cid: kind for cid, (_, kind, _, _) in b.cards.items()},
        tags=frozenset(t for card, _, _, _ in b.cards.values() for t in card.tags),
        cards_unread=bool(b.unread.get("cards")),
        options=frozenset(b.options),
        kinds=frozenset(k.id for k in kinds.kinds) if kinds else frozenset(),
        decks=frozenset(k.id for k in kinds.kinds if k.deck) if kinds else frozenset(),
    )


def check_context(b: Builder, kind: str) -> Context:
    """What the checker knows of where an effect appears: its kind, and whether an expansion's kind is held
    like an Item (held-as item, or held by a Unit among its cards), so that it never stands."""
    kinds: schema.KindRules | None = b.rules.get("kinds.yaml")
    kdef = next((k for k in kinds.kinds if k.id == kind), None) if kinds else None
    # Bought for a cost: the base game's Specialists, Items and Vehicles, and a kind held like them (another
    # side's Reserve); a clause may then speak of the card's own price while it waits ('cost = 0 if ...').
    bought = kind in {"specialist", "item", "vehicle"} or (kdef is not None and kdef.held_as is not None)
    if kdef is None:
        return Context(kind, bought=bought)
    # What reaches it (words.OWNERS): a card a Unit gains like the base game's (another side's Reserve), one drawn
    # from its kind's deck, one held as a Specialist.
    owners = frozenset({"card"} | ({"gained"} if kdef.held_as else set()) | ({"drawn"} if kdef.deck else set())
                       | ({"specialist"} if kdef.held_as == "specialist" else set()))
    label = f"{'an' if kdef.name[:1] in 'AEIOU' else 'a'} {kdef.name}"
    if kdef.held_as == "item" or (kdef.held_as is None and kdef.held_by == "unit"):
        return Context(kind, kdef.name, bought=bought, owners=owners, label=label)
    game_held = kdef.held_by == "game" and kdef.held_as is None  # drawn into play for all
    return Context(kind, bought=bought, held_by_game=game_held, owners=owners, label=label)

def effect(b: Builder, owner: str, kind: str, name: str, text: str, doc: YamlDoc, node: Any,
           vocab: Vocabulary, compiler: Compiler, renderer: Renderer, tier: str,
           pack: str | None, key: str = "effect") -> EffectSource | None:
    if not isinstance(node, dict) or not isinstance(node.get(key), str):  # none, or left out (SCHEMA004)
        empty = ast.Effect(())
        return EffectSource(owner, kind, tier, name, doc.file, 0, 0, "", empty,
                            CompiledEffect((), (), ()), (), pack)
    smap, problem = scalar_source(doc, node, key)
    if problem is not None:
        b.diags.append(problem)
        return None
    tree, diags = parse_effect(text, smap)
    b.diags += diags
    if tree is None:
        rest = parse_good_lines(text, smap)  # the clauses that do parse are still checked: all errors at once
        if rest is not None:
            b.diags += check_effect(rest, vocab, check_context(b, kind))[1]
        mended = mend_lines(text, smap)  # and the names written beside each syntax error
        if mended is not None:
            b.diags += [mended.place(d) for d in check_names(mended.effect, vocab, check_context(b, kind))]
        return None
    checked, diags = check_effect(tree, vocab, check_context(b, kind))
    b.diags += diags
    if diags:
        return None
    english = tuple(renderer.lines(checked))
    compiled = compiler.effect(checked, renderer.option, renderer.clause)
    return EffectSource(owner, kind, tier, name, smap.file, smap.line, smap.column, text, checked,
                        compiled, english, pack)


def check_effects(b: Builder, vocab: Vocabulary) -> dict[str, EffectSource]:
    names = {cid: card.name for cid, (card, _, _, _) in b.cards.items()}
    qtext = {q.id: q.text for q in vocab.queries.values()}
    del qtext
    qnames = {q.id: q.name for q in vocab.queries.values() if q.name}
    renderer = Renderer(names, qnames)
    compiler = Compiler(vocab.numbers())
    out: dict[str, EffectSource] = {}

    def tier(kind: str) -> str:
        return tier_of(b.rules["precedence.yaml"], kind)

    def add(src: EffectSource | None) -> None:
        if src is not None:
            out[src.owner] = src

    for rwb, doc, node in b.pending_rwb:
        # an RWB written for an optional rule stands in for the plain one while the rule is on (engine)
        key = f"rwb:{rwb.id}" + (f"@{rwb.option}" if rwb.option else "")
        add(effect(b, key, "rwb", rwb.name, rwb.effect, doc, node, vocab, compiler, renderer, tier("rule"), None))
    for side, doc, node in b.pending_sides:
        # A side's own rules reach its players only (interpreter: the side's sources); its Assault trophy runs
        # for its player when it wins an Assault.
        add(effect(b, f"side:{side.id}", "rule", side.name, side.effect, doc, node, vocab, compiler, renderer,
                     tier("rule"), None))
        if side.assault is not None and side.assault.trophy:
            add(effect(b, f"side:{side.id}/assault", "rule", f"{side.name}: {side.assault.name}",
                         side.assault.trophy, doc, node["assault"], vocab, compiler, renderer, tier("rule"), None,
                         key="trophy"))
    for rule, doc, node in b.pending_rules:
        add(effect(b, f"rule:{rule.id}", "rule", rule.name, rule.effect, doc, node, vocab, compiler, renderer,
                     tier("rule"), None))
    for rule, doc, node in b.pending_damage:
        add(effect(b, f"special-damage:{rule.id}", "rule", rule.name, rule.effect, doc, node, vocab, compiler,
                     renderer, tier("rule"), None))
    for oid, (opt, doc, node) in b.options.items():
        add(effect(b, f"option:{oid}", "option", opt.name, opt.effect, doc, node, vocab, compiler, renderer,
                     tier("option"), b.owner_pack.get(f"option:{oid}")))
    for name, kind, doc, node in b.broken_cards:
        effect(b, f"(unloaded) {name}", kind, name, str(node["effect"]), doc, node, vocab, compiler, renderer,
                 tier(kind), None)
    for cid, (card, kind, doc, node) in b.cards.items():
        add(effect(b, cid, kind, card.name, card.effect, doc, node, vocab, compiler, renderer, tier(kind),
                     b.owner_pack.get(f"card:{cid}")))
    for mid, (bm, doc) in b.maps.items():
        map_vocab = vocab.for_map(frozenset(s.id for s in bm.sectors), frozenset(a.id for a in bm.attributes),
                                  frozenset(t.id for t in bm.tables))
        map_renderer = Renderer({**names, **{s.id: s.name for s in bm.sectors},
                                 **{a.id: a.name for a in bm.attributes}, **{t.id: t.name for t in bm.tables}}, qnames)
        for i, sec in enumerate(bm.sectors):
            node = doc.data["sectors"][i]
            add(effect(b, f"{mid}/{sec.id}", "sector", f"{bm.name}, {sec.name}", sec.effect, doc, node, map_vocab,
                         compiler, map_renderer, tier("sector"), b.owner_pack.get(f"map:{mid}")))
        for i, attr in enumerate(bm.attributes):
            node = doc.data["attributes"][i]
            add(effect(b, f"{mid}/attribute:{attr.id}", "sector", f"{bm.name}: {attr.name}", attr.effect, doc,
                         node, map_vocab, compiler, map_renderer, tier("sector"), b.owner_pack.get(f"map:{mid}")))
        if bm.rules:
            add(effect(b, f"{mid}/rules", "rule", f"{bm.name}: scenario rules", bm.rules, doc, doc.data,
                         map_vocab, compiler, map_renderer, tier("sector"), b.owner_pack.get(f"map:{mid}"),
                         key="rules"))
    return out

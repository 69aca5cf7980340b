"""What the game screen says in its own words, from the person's :class:`Choices`.

The log's first line, the prompt (what to do now, in full and then shorter for a
narrow screen), the hand panel with no tiles to show, and the notices of a key or
a click that can do nothing now. The events of the game are worded in
:mod:`allfives_tui.table.words`. No Textual.
"""

from __future__ import annotations

from rich.cells import cell_len

from allfives_tui.locale import _, ngettext
from allfives_tui.locale.formats import number
from allfives_tui.table.words import end_name
from allfives_tui.ui.screens.game_choices import Choices
from engine import Draw, Pass, Phase, Play, Tile


def opening_line(choices: Choices) -> str:
    """The log's first line: how the game started, in the words of the seat viewing."""
    table = choices.table
    viewer = choices.viewer
    rules = table.rules
    target = number(rules.target)
    if table.resumed:
        text = _("Game continued (hand {hand}, to {target}).")
        return text.format(hand=number(choices.view.hand_number), target=target)
    if viewer is None:
        text = _("New game: {players}, to {target} points.")
        return text.format(players=", ".join(table.names), target=target)
    names = table.words(viewer)
    me = rules.team_of(viewer)
    partners = [names.seat(s) for s in rules.seats_of(me) if s != viewer]
    others = ", ".join(names.team(t) for t in range(rules.teams) if t != me)
    if partners:  # a side is at most two seats: one partner
        text = _("New game with {partner} against {others}, to {target} points.")
    else:
        text = _("New game against {others}, to {target} points.")
    partner = partners[0] if partners else ""
    return text.format(partner=partner, others=others, target=target)


def hidden_hand_text(choices: Choices) -> str:
    """What the hand panel says when it shows no tiles."""
    if choices.viewer is not None:
        return _("(no tiles)")
    st = choices.view
    if st.phase is Phase.PLAY and st.current is not None:
        who = choices.table.names[st.current]
        if choices.table.kind(st.current) == "person":
            return _("(tiles hidden: pass the keyboard to {name})").format(name=who)
        return _("(tiles hidden while {name} plays)").format(name=who)
    return _("(tiles hidden)")


def prompt_text(choices: Choices, width: int = 1000) -> str:
    """What the person should do now, in words (in at most ``width`` cells where it can
    be said shorter)."""
    if choices.human_turn and choices.choosing:
        tile = choices.selected_tile
        if tile is not None:
            return _choosing_text(choices, tile, width)
    said = _prompts(choices)
    return next((text for text in said if cell_len(text) <= width), said[-1])


def _prompts(choices: Choices) -> list[str]:
    """What to do now, said in full first and then shorter (for a narrow prompt)."""
    st = choices.view
    table = choices.table
    if st.phase is Phase.OVER:
        return [_("The game is over.")]
    if st.phase is Phase.DEAL:
        return [_("The hand is over.")]
    if not choices.human_turn:
        who = table.names[st.current or 0]
        if table.kind(st.current or 0) == "person":
            return [_("{name}'s turn.").format(name=who)]
        thinking = _("{name} is thinking…").format(name=who)
        if choices.viewer is not None:
            look = _("{name} is thinking… (←→ look over your tiles)").format(name=who)
            return [look, thinking]
        return [thinking]
    legal = choices.legal
    tile = choices.selected_tile
    if legal and isinstance(legal[0], Draw):
        return [
            _("Nothing fits an open end: press d to draw from the boneyard"),
            _("Nothing fits: press d to draw"),
        ]
    if legal and isinstance(legal[0], Pass):
        return [
            _("Nothing fits and the boneyard is empty: press p to pass"),
            _("Nothing fits: press p to pass"),
        ]
    if st.must_play is not None:
        return [
            _("You drew {tile}: it fits, so it must be played now (⏎)").format(tile=st.must_play),
            _("⏎ plays the drawn {tile}").format(tile=st.must_play),
        ]
    if tile is None:
        return [_("Your turn: ←→ or 1-9 choose a tile")]
    if st.layout.is_empty:
        points = choices.score(Play(tile=tile))
        if points:
            long = _("Your lead: any tile. ←→ or 1-9 choose, ⏎ leads {tile} (+{points})")
            short = _("⏎ leads {tile} (+{points})")
        else:
            long = _("Your lead: any tile. ←→ or 1-9 choose, ⏎ leads {tile} (no score)")
            short = _("⏎ leads {tile} (no score)")
        return [t.format(tile=tile, points=number(points)) for t in (long, short)]
    fits = choices.ends_for(tile)
    if not fits:
        return [
            _("Your turn: ←→ or 1-9 choose a tile ({tile} fits no open end)").format(tile=tile),
            _("{tile} fits no open end").format(tile=tile),
        ]
    if len(fits) == 1 and fits[0] is not None:
        points = choices.score(Play(tile=tile, end=fits[0]))
        if points:
            long = _("Your turn: ←→ or 1-9 choose, ⏎ plays {tile} on the {end} end (+{points})")
            short = _("⏎ plays {tile} on the {end} end (+{points})")
        else:
            long = _("Your turn: ←→ or 1-9 choose, ⏎ plays {tile} on the {end} end (no score)")
            short = _("⏎ plays {tile} on the {end} end (no score)")
        return [
            t.format(tile=tile, end=end_name(fits[0]), points=number(points))
            for t in (long, short)
        ]
    count = len(fits)
    long = ngettext(
        "Your turn: ←→ or 1-9 choose, ⏎ plays {tile} (it fits {count} end)",
        "Your turn: ←→ or 1-9 choose, ⏎ plays {tile} (it fits {count} ends)",
        count,
    )
    short = ngettext(
        "⏎ plays {tile} (it fits {count} end)", "⏎ plays {tile} (it fits {count} ends)", count
    )
    return [t.format(tile=tile, count=number(count)) for t in (long, short)]


def _choosing_text(choices: Choices, tile: Tile, width: int) -> str:
    """While choosing an end: where ⏎ plays the tile, then as much about the other ends
    as fits in ``width`` cells."""
    chosen = choices.choosing[choices.cursor]
    points = choices.score(Play(tile=tile, end=chosen))
    if points:
        here = _("⏎ plays {tile} on the {end} end (+{points})")
    else:
        here = _("⏎ plays {tile} on the {end} end (no score)")
    here = here.format(tile=tile, end=end_name(chosen), points=number(points))
    others = [e for e in choices.choosing if e is not chosen]
    keys = "/".join(e.value.lower() for e in others)  # the keys that choose them
    scores = [choices.score(Play(tile=tile, end=e)) for e in others]
    words = ", ".join(
        (_("{end} (+{points})") if p else _("{end} (no score)")).format(
            end=end_name(e), points=number(p)
        )
        for e, p in zip(others, scores, strict=True)
    )
    shorter = ", ".join(
        _("{end} +{points}").format(end=end_name(e), points=number(p))
        for e, p in zip(others, scores, strict=True)
    )
    # the key letter, as on the board's marker, and the points
    short = ", ".join(f"{e.value} +{number(p)}" for e, p in zip(others, scores, strict=True))
    count = len(others)
    for text in (
        _("{here} · ←→ or {keys}: {ends} · Esc back").format(here=here, keys=keys, ends=words),
        _("{here} · ←→ or {keys}: {ends} · Esc back").format(here=here, keys=keys, ends=shorter),
        _("{here} · ←→ or {keys}: {ends} · Esc back").format(here=here, keys=keys, ends=short),
        ngettext(
            "{here} · ←→ {count} other end · Esc back",
            "{here} · ←→ {count} other ends · Esc back",
            count,
        ).format(here=here, count=number(count)),
        f"{here} · ←→ · Esc",
    ):
        if cell_len(text) <= width:
            return text
    return here


def cannot_play(choices: Choices, tile: Tile) -> str:
    """Why ``tile``, which fits no open end now, cannot be played."""
    must_play = choices.view.must_play
    if must_play is not None and tile != must_play:
        return _("The drawn {tile} must be played now.").format(tile=must_play)
    if choices.can(Play):
        return _("{tile} fits no open end: choose a highlighted tile.").format(tile=tile)
    return _("Nothing fits: draw (d) or pass (p).")


def why_not(choices: Choices, action: str) -> str | None:
    """Why ``action`` (``draw``, ``pass_turn`` or ``play``) cannot be done now, in a
    sentence; None when it can."""
    view = choices.view
    if view.phase is Phase.OVER:
        return _("The game is over.")
    if view.phase is not Phase.PLAY:
        return _("The hand is over.")
    if not choices.human_turn:
        name = choices.table.names[view.current or 0]
        if choices.table.kind(view.current or 0) == "person":
            return _("It is {name}'s turn, not yours.").format(name=name)
        return _("{name} is thinking: wait for your turn.").format(name=name)
    can_play, can_draw, can_pass = choices.can(Play), choices.can(Draw), choices.can(Pass)
    if action == "draw" and not can_draw:
        if view.must_play is not None:
            return _("The drawn {tile} fits: it must be played now (⏎).").format(
                tile=view.must_play
            )
        if can_play:
            return _("A tile fits an open end: you draw only when nothing fits.")
        return _("The boneyard is empty: press p to pass.")
    if action == "pass_turn" and not can_pass:
        if can_play:
            return _(
                "A tile fits an open end: you pass only when nothing fits and the "
                "boneyard is empty."
            )
        return _("Nothing fits, but the boneyard has tiles: press d to draw.")
    if action == "play" and not can_play:
        if can_draw:
            return _("Nothing fits an open end: press d to draw.")
        return _("Nothing fits and the boneyard is empty: press p to pass.")
    return None

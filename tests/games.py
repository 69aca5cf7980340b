"""Games played on: :func:`play_out` plays a table on, the way every test plays a game;
:func:`play_game` plays a seeded game between computer players."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from weakref import WeakKeyDictionary

from allfives_tui.table.driver import computer_player
from allfives_tui.table.table import Table, Turn
from engine import Action, GameState, Rules, apply, new_game, seeded_deal
from engine.players import Player, make_player
from engine.record import Seat
from engine.rng import Rng

NAMES = ("Ann", "Bob", "Cat", "Dan")


def first_legal(turn: Turn) -> Action:
    """A person's move in these games: the first legal action."""
    return turn.legal[0]


def play_out(
    table: Table,
    *,
    players: Mapping[int, Player] | None = None,
    hands: int | None = None,
    actions: int | None = None,
    until: Callable[[Table], bool] | None = None,
) -> Table:
    """Play ``table`` on, dealing as needed: a seat in ``players`` by that player, another
    computer's seat by the computer the turn driver seats there, a person's by their first
    legal action. It stops when the game is over, when ``hands`` hands are over, when the
    game has ``actions`` actions (deals count), or just before a change when ``until(table)``
    holds; it returns ``table``."""
    chosen = players or {}
    done = len(table.state.actions)
    while not table.is_over:
        if (actions is not None and done >= actions) or (until is not None and until(table)):
            break
        turn = table.turn()
        if turn is None:
            if hands is not None and table.state.hand_number >= hands:
                break
            table.deal()
        elif turn.seat in chosen:
            table.act(turn.seat, chosen[turn.seat].choose(turn.view, turn.legal))
        elif turn.kind == "computer":
            table.act(turn.seat, computer_choice(table, turn))
        else:
            table.act(turn.seat, first_legal(turn))
        done += 1
    return table


def to_act(table: Table) -> str | None:
    """The kind of the seat to act (``None``: nobody is, a deal is due or the game is over)."""
    turn = table.turn()
    return None if turn is None else turn.kind


def play_game(
    rules: Rules, seed: int, level: str = "greedy", max_actions: int = 10_000
) -> GameState:
    """A game played to the end (or ``max_actions``) by ``level`` players from ``seed``."""
    seats = computer_seats(rules.players, level)
    players = {i: make_player(level, seed + i) for i in range(rules.players)}
    table = play_out(Table.new(rules, seats, seed), players=players, actions=max_actions)
    return table.state


def computer_seats(players: int, level: str = "greedy") -> tuple[Seat, ...]:
    """``players`` computer seats at ``level``, named from :data:`NAMES`."""
    return tuple(Seat(name=NAMES[i], kind="computer", level=level) for i in range(players))


_COMPUTERS: WeakKeyDictionary[Table, dict[int, Player]] = WeakKeyDictionary()


def computer_choice(table: Table, turn: Turn) -> Action:
    """The computer's action for ``turn`` at ``table``, by the player the turn driver
    seats there (its level, the game's seed), kept for the table's whole game."""
    players = _COMPUTERS.setdefault(table, {})
    if turn.seat not in players:
        players[turn.seat] = computer_player(table.seed, turn.seat, table.seats[turn.seat].level)
    return players[turn.seat].choose(turn.view, turn.legal)


def hand_states(seed: int, players: int = 2) -> list[GameState]:
    """Every state of the first hand at ``seed``, random legal moves, deal first."""
    state = new_game(Rules(players=players))
    state = apply(state, seeded_deal(state, seed)).state
    rng = Rng(seed)
    out = []
    while state.phase.value == "play":
        out.append(state)
        legal = state.legal_actions()
        state = apply(state, legal[rng.below(len(legal))]).state
    return out

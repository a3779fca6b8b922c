"""The public Python API, for notebooks and scripts; everything here is importable from the
package root (``import solver``; ``solver.solve(...)``):

    import solver
    deal = solver.game("terrace", 1)                  # PySolFC game 1 of Queen of Italy
    result = solver.solve(deal)                       # every proved rule, the default budget
    print(result.verdict, result.base(), len(result.moves))
    assert solver.replay(deal, result.moves).ok       # the reference engine plays it to a win

The command line is built on the same functions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional, Union

from solver.formats import Deal, read_deal, read_deals
from solver.moves import Move, parse_moves
from solver.variants import Rules, make_rules

__all__ = ["Budget", "Deal", "ReplayResult", "Rules", "SolveResult",  # noqa: F822 (three from __getattr__)
           "game", "hint", "read_deal", "read_deals", "replay", "rules", "solve", "verify"]


def rules(variant: str, profile: Optional[str] = None, **options) -> Rules:
    """The full rule set of ``variant`` (``patience variants`` lists them) with ``profile``
    (e.g. ``"pysolfc"``), then ``options``, applied; an unknown name or value is an error."""
    return make_rules(variant, options, profile)


def game(variant: str | Rules, number: str | int, profile: Optional[str] = None, **options) -> Deal:
    """The deal PySolFC shows as game ``number`` of ``variant`` (a name, with ``profile``
    and ``options`` as in ``rules``, or a rule set)."""
    from solver.formats import pysolfc_deal
    r = variant if isinstance(variant, Rules) else rules(variant, profile, **options)
    return pysolfc_deal(r, number)


def __getattr__(name: str):
    # The solver's own types come with numba: loaded on first use, so that ``import solver``
    # and the deal functions stay light.
    if name in ("Budget", "SolveResult"):
        from solver import driver
        return getattr(driver, name)
    if name == "ReplayResult":
        from solver import playback
        return playback.ReplayResult
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def solve(deal: Deal, nodes: Optional[int] = None, seconds: Optional[float] = None,
          memory: Optional[int] = None, dominance: Iterable[str] = ("all",), shorten: Optional[int] = None):
    """Decide ``deal``: a ``SolveResult`` whose ``verdict`` is ``won`` (with ``moves``, a line
    the reference engine has replayed to a win), ``lost`` (a complete search) or
    ``unknown`` (``reason``: the budget that ran out). ``nodes`` defaults to the variant's
    budget (``Variant.budget_nodes``, the command line's and the published table's),
    ``seconds`` and ``memory`` (bytes of transposition table) to the command line's; ``dominance``
    names the proved rules to use (``"all"``: every one the rules allow; ``()``: none);
    ``shorten``: the nodes spent on shortening a winning line (``search_moves`` is the
    length before)."""
    from solver.adapter import expand_dominance
    from solver.driver import solve as _solve
    return _solve(deal, _budget(deal, nodes, seconds, memory, shorten), expand_dominance(deal.rules, tuple(dominance)))


def _budget(deal: Deal, nodes: Optional[int], seconds: Optional[float], memory: Optional[int],
            shorten: Optional[int] = None):
    """The ``Budget`` of the API's arguments: each one not given is the command line's
    default (``nodes``: the variant's budget)."""
    from solver.driver import Budget
    from solver.variants import budget_nodes
    b = Budget()
    return Budget(nodes=budget_nodes(deal.rules) if nodes is None else nodes,
                  seconds=b.seconds if seconds is None else seconds, memory=b.memory if memory is None else memory,
                  shorten=b.shorten if shorten is None else shorten)


def hint(deal: Deal, played: Union[str, Iterable[Union[str, Move]]] = (), nodes: Optional[int] = None,
         move_nodes: Optional[int] = None, seconds: Optional[float] = None, memory: Optional[int] = None,
         dominance: Iterable[str] = ("all",), look_back: bool = True):
    """A game in play: the position after ``played`` (the notation as one string or a list,
    or ``Move`` objects; legal from the deal's opening, else ``IllegalMove``). Returns a
    ``solver.in_play.Hint``: ``verdict`` on the position (the claims of ``solve``; a won
    ``result.moves`` goes on from the position), ``next_move()``, and with ``move_nodes``
    each legal move's verdict (``moves``); with ``look_back``, for a position not proved
    winnable, ``where_lost`` (``losing_move``: the move that lost the game, when proved).
    ``nodes`` defaults to the variant's budget."""
    from solver.adapter import expand_dominance
    from solver.in_play import hint as _hint
    return _hint(deal, _moves(played), _budget(deal, nodes, seconds, memory),
                 expand_dominance(deal.rules, tuple(dominance)),
                 None if move_nodes is None else _budget(deal, move_nodes, seconds, memory), look_back)


def _moves(items: Union[str, Iterable[Union[str, Move]]]) -> list[Move]:
    """Moves given as ``Move`` objects, or the notation as one string or a list of strings."""
    items = items if isinstance(items, str) else list(items)
    if items and not isinstance(items, str) and all(isinstance(m, Move) for m in items):
        return list(items)
    return parse_moves(items) if items else []


def verify(path: Union[str, Path], nodes: Optional[int] = None, seconds: Optional[float] = None,
           memory: Optional[int] = None) -> Iterator[tuple[Deal, object]]:
    """Each deal of a deal file (``.json``, or ``.jsonl`` with one deal a line) with its
    ``solve`` result, in file order; a malformed file is an error before any solve."""
    for deal in list(read_deals(path)):
        yield deal, solve(deal, nodes, seconds, memory)


def replay(deal: Deal, moves: Union[str, Iterable[Union[str, Move]]], step: Optional[Callable] = None):
    """Play ``moves`` (``Move`` objects, or the notation as one string or a list of
    strings) on the reference engine from the deal's opening: a ``ReplayResult`` (``ok``:
    every move legal and the game won; ``message(moves)`` says which move failed; ``start``
    and ``final`` the first and last positions). ``step(i, move, position)`` is called after
    each legal move with the position it leads to."""
    from solver.playback import replay as _replay
    return _replay(deal, _moves(moves), step)

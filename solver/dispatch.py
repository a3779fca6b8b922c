"""The kernel calls of the contract (``solver.kernels``), for code that names no family.

A ``Kernel`` is a small value that stands for one family's kernel. Its numba type names the
family, so a compiled function that takes a ``Kernel`` (the search driver) is compiled once
per family, and each call below resolves, at compile time, to that family's function
through the registry: no branch on the family at run time, no family named in the driver.

Why not hand the kernel's njit functions to the driver as first-class arguments: numba
0.68 (measured) compiles such a driver again in every process (its cache keys hold the
functions' identities; measured: a cache miss on every start), which would cost every
batch worker and every CLI call seconds of compilation. A ``Kernel`` type's key is the
family's name, so the driver is cached on disk like any other function.
"""

from __future__ import annotations

from numba import njit, types
from numba.extending import NativeValue, models, overload, register_model, typeof_impl, unbox

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.errors import UnsupportedVariant
from solver.kernels import kernel_module


WON_GOAL = "won"                 # the game's own goal: every card home


class Kernel:
    """The kernel of family ``family`` (one that has a kernel: see ``solver.kernels``),
    searching for ``goal``: the game's win, or one of the family's ``GOALS`` (a search
    that ends without reaching it proves the goal unreachable, not the deal lost)."""

    __slots__ = ("family", "goal")

    def __init__(self, family: str, goal: str = WON_GOAL):
        module = kernel_module(family)    # an unknown family, or one with no kernel, is an error
        if goal != WON_GOAL and goal not in getattr(module, "GOALS", {}):
            raise UnsupportedVariant(f"the {family} kernel has no goal {goal!r}")
        self.family = family
        self.goal = goal

    def __repr__(self) -> str:
        return f"Kernel({self.family!r})" if self.goal == WON_GOAL else f"Kernel({self.family!r}, {self.goal!r})"


class KernelType(types.Opaque):
    """numba's type of a ``Kernel``: one type per family and goal (so the search for
    another goal is compiled apart, and the search for wins keeps its code)."""

    def __init__(self, family: str, goal: str = WON_GOAL):
        self.family = family
        self.goal = goal
        super().__init__(name=f"Kernel({family})" if goal == WON_GOAL else f"Kernel({family}:{goal})")


@typeof_impl.register(Kernel)
def _typeof_kernel(val, c):
    return KernelType(val.family, val.goal)


register_model(KernelType)(models.OpaqueModel)


@unbox(KernelType)
def _unbox_kernel(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())   # the type carries everything


def _family_function(kernel, name: str):
    """The njit function ``name`` of the family that ``kernel`` (a ``KernelType``) stands for."""
    if not isinstance(kernel, KernelType):
        raise TypeError(f"a kernel call takes a Kernel first, not {kernel}")
    return getattr(kernel_module(kernel.family), name)


def _gen(kernel, cfg, state, moves, start, last):
    """Placeholder resolved by ``overload`` below (never called from Python)."""


def _make(kernel, cfg, state, keys, m):
    """Placeholder resolved by ``overload`` below."""


def _undo(kernel, cfg, state, keys, m, info):
    """Placeholder resolved by ``overload`` below."""


def _won(kernel, cfg, state):
    """Placeholder resolved by ``overload`` below."""


def _class(kernel, cfg, m):
    """Placeholder resolved by ``overload`` below."""


def _hash(kernel, cfg, state, keys, h):
    """Placeholder resolved by ``overload`` below."""


def _score(kernel, cfg, state, weights):
    """Placeholder resolved by ``overload`` below."""


def _goal(kernel):
    """The goal's pair of njit functions (``reached(cfg, state)``, ``beyond(cfg, state)``:
    no line from the state reaches it) of a ``KernelType`` searching for another goal."""
    return kernel_module(kernel.family).GOALS[kernel.goal]


@overload(_gen, inline="always")
def _ol_gen(kernel, cfg, state, moves, start, last):
    f = _family_function(kernel, "gen_moves")
    if kernel.goal == WON_GOAL:
        return lambda kernel, cfg, state, moves, start, last: f(cfg, state, moves, start, last)
    beyond = _goal(kernel)[1]

    def gen_toward_goal(kernel, cfg, state, moves, start, last):
        if beyond(cfg, state):        # a dead end for the goal: no moves to search
            return 0
        return f(cfg, state, moves, start, last)
    return gen_toward_goal


@overload(_make, inline="always")
def _ol_make(kernel, cfg, state, keys, m):
    f = _family_function(kernel, "make_move")
    return lambda kernel, cfg, state, keys, m: f(cfg, state, keys, m)


@overload(_undo, inline="always")
def _ol_undo(kernel, cfg, state, keys, m, info):
    f = _family_function(kernel, "undo_move")
    return lambda kernel, cfg, state, keys, m, info: f(cfg, state, keys, m, info)


@overload(_won, inline="always")
def _ol_won(kernel, cfg, state):
    f = _family_function(kernel, "is_won") if kernel.goal == WON_GOAL else _goal(kernel)[0]
    return lambda kernel, cfg, state: f(cfg, state)


@overload(_class, inline="always")
def _ol_class(kernel, cfg, m):
    f = _family_function(kernel, "move_class")
    return lambda kernel, cfg, m: f(cfg, m)


@overload(_hash, inline="always")
def _ol_hash(kernel, cfg, state, keys, h):
    f = _family_function(kernel, "hash_state")
    return lambda kernel, cfg, state, keys, h: f(cfg, state, keys, h)


@overload(_score, inline="always")
def _ol_score(kernel, cfg, state, weights):
    f = _family_function(kernel, "beam_score")
    return lambda kernel, cfg, state, weights: f(cfg, state, weights)


# The contract's calls on any family's kernel, from numba and from Python alike.

@njit(cache=True, inline="always")
def gen_moves(kernel, cfg, state, moves, start, last):
    """The legal moves at ``moves[start:]``; returns how many (``last``: the move that led
    here, -1 if not known)."""
    return _gen(kernel, cfg, state, moves, start, last)


@njit(cache=True, inline="always")
def make_move(kernel, cfg, state, keys, m):
    """Play ``m`` and its automatic actions; returns the undo record."""
    return _make(kernel, cfg, state, keys, m)


@njit(cache=True, inline="always")
def undo_move(kernel, cfg, state, keys, m, info):
    """Take ``m`` back (``info``: its undo record)."""
    _undo(kernel, cfg, state, keys, m, info)


@njit(cache=True, inline="always")
def is_won(kernel, cfg, state):
    return _won(kernel, cfg, state)


@njit(cache=True, inline="always")
def move_class(kernel, cfg, m):
    """The win-first ordering class of ``m`` (lower first)."""
    return _class(kernel, cfg, m)


@njit(cache=True)
def hash_state(kernel, cfg, state, keys, h):
    """The key of ``state`` computed from scratch into ``h`` (make and undo keep
    ``state.h`` equal to it)."""
    _hash(kernel, cfg, state, keys, h)


@njit(cache=True, inline="always")
def beam_score(kernel, cfg, state, weights):
    """How promising ``state`` looks to a beam search (higher first), with ``weights``."""
    return _score(kernel, cfg, state, weights)

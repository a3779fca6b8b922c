"""Golden move counts (``tests/perft/*.perft``, written by ``tests/perft/generate.py``):
the reference engine reproduces them for every variant, and every kernel for its
family's variants. An exact, cheap regression net for the rules and for a new kernel."""

from pathlib import Path

import pytest

from solver.formats import pysolfc_deal
from solver.kernels import family
from solver.variants import make_rules
from tests.support.kernel_checks import kernel_perft, reference_perft

PERFT = Path(__file__).resolve().parent / "perft"


def read_perft(path: Path) -> dict[int, list[int]]:
    """{game: [count of sequences of length 1, 2, ...]} from one ``.perft`` file."""
    games: dict[int, list[int]] = {}
    game = None
    for line in path.read_text().splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "game":
            game = int(words[1])
            games[game] = []
        elif words[0] == "perft":
            assert game is not None and int(words[1]) == len(games[game]) + 1, (path, line)
            games[game].append(int(words[2]))
        else:
            raise ValueError(f"{path}: bad line {line!r}")
    return games


FILES = sorted(PERFT.glob("*.perft"))
CASES = [(f.stem, game, counts) for f in FILES for game, counts in read_perft(f).items()]


def test_every_variant_has_golden_counts():
    from solver.variants import CATALOGUE
    assert {f.stem for f in FILES} == {v.key for v in CATALOGUE}
    assert all(len(counts) >= 3 for _, _, counts in CASES)


# The pure-Python engine's default check stops at the depth whose sequences would pass this
# many (it took 126 s to the full depth, the kernels' check 44 s); the slow test goes deeper.
REFERENCE_SEQUENCES = 30_000


def reference_depth(counts: list[int]) -> int:
    """The depth the default run checks the reference engine to: at least three moves."""
    depth = 3
    while depth < len(counts) and sum(counts[:depth + 1]) <= REFERENCE_SEQUENCES:
        depth += 1
    return depth


@pytest.mark.parametrize("name,game,counts", CASES, ids=[f"{v}-{g}" for v, g, _ in CASES])
def test_reference_engine_reproduces_golden_counts(name, game, counts):
    depth = reference_depth(counts)
    assert reference_perft(pysolfc_deal(make_rules(name), game), depth) == counts[:depth]


@pytest.mark.slow
@pytest.mark.parametrize("name,game,counts", CASES, ids=[f"{v}-{g}" for v, g, _ in CASES])
def test_reference_engine_reproduces_golden_counts_to_the_full_depth(name, game, counts):
    assert reference_perft(pysolfc_deal(make_rules(name), game), len(counts)) == counts


KERNEL_CASES = [c for c in CASES if family(make_rules(c[0]).family).kernel is not None]


@pytest.mark.parametrize("name,game,counts", KERNEL_CASES, ids=[f"{v}-{g}" for v, g, _ in KERNEL_CASES])
def test_kernel_reproduces_golden_counts(name, game, counts):
    assert kernel_perft(pysolfc_deal(make_rules(name), game), len(counts)) == counts

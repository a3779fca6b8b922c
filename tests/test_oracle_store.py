"""The stored oracle verdicts (``tests/oracle/``) are the oracle's, and a stale file is refused."""

import pytest

from tests.support import oracle_store
from tests.support.kernel_checks import cross_check
from tests.support.oracle_store import ORACLE_DIR, StaleOracle, miniature_deals, read, recompute

STORED = sorted(p.name for p in ORACLE_DIR.glob("*.txt"))


# Files of positions (``position_verdicts``): the dead-state tests' positions are all lost
POSITIONS = [name for name in STORED if "positions" in read(ORACLE_DIR / name)[0]]
DEALS = [name for name in STORED if name not in POSITIONS]


def test_the_default_run_has_stored_verdicts():
    assert len(DEALS) >= 20 and len(POSITIONS) >= 5
    for name in STORED:
        params, _, _, verdicts = read(ORACLE_DIR / name)
        assert len(verdicts) == params["n"]
        assert {"won", "lost"} <= set(verdicts) or params["n"] < 100 or name in POSITIONS, name
        assert "lost" in verdicts or name in DEALS, name


# A file of positions is left to the slow test: its sample would make its positions again,
# as costly as its own check (the projection's 3,000 games: 25 s).
@pytest.mark.parametrize("name", DEALS)
def test_stored_verdicts_are_the_oracles_on_a_sample(name):
    assert recompute(ORACLE_DIR / name, every=50) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", STORED)
def test_stored_verdicts_are_the_oracles(name):
    assert recompute(ORACLE_DIR / name) == []


@pytest.fixture
def store_in(tmp_path, monkeypatch):
    monkeypatch.setattr(oracle_store, "ORACLE_DIR", tmp_path)
    monkeypatch.setenv("PATIENCE_STORE_ORACLE", "1")
    return tmp_path


def test_a_cross_check_compares_with_the_stored_verdicts(store_in):
    counts = cross_check("terrace", 6, seed=5, small=True, max_states=5_000)
    (path,) = store_in.glob("*.txt")
    lines = path.read_text().splitlines()
    flipped = "".join({"W": "L", "L": "W"}.get(c, c) for c in lines[3])
    assert flipped != lines[3] and counts["won"] + counts["lost"] > 0
    path.write_text("\n".join(lines[:3] + [flipped]) + "\n")
    with pytest.raises(AssertionError):
        cross_check("terrace", 6, seed=5, small=True, max_states=5_000)


def test_a_file_of_other_deals_or_another_engine_is_refused(store_in, monkeypatch):
    cross_check("terrace", 3, seed=6, small=True, max_states=5_000)
    (path,) = store_in.glob("*.txt")
    params = read(path)[0]
    fresh = miniature_deals("terrace", 3, 6, None, True)
    assert oracle_store.stored_verdicts(params, fresh) is not None
    with pytest.raises(StaleOracle, match="other deals"):
        oracle_store.stored_verdicts(params, miniature_deals("terrace", 3, 7, None, True))
    monkeypatch.setattr(oracle_store, "REFERENCE_SOURCES", ("oracle.py",))
    with pytest.raises(StaleOracle, match="reference engine changed"):
        oracle_store.stored_verdicts(params, fresh)


def test_a_file_of_positions_is_read_back_and_refused_for_other_positions(store_in, monkeypatch):
    import tests.alhambra.test_schedule_alhambra as made_by
    source = "tests.alhambra.test_schedule_alhambra:_positions"
    args = dict(seed=5, n=4, small=True, variant="alhambra", fixed={"waste_piles": 1, "reinforce": False})
    made, verdicts = oracle_store.position_verdicts("alhambra", source, args, 5_000)
    (path,) = store_in.glob("*.txt")
    assert len(made) == 4 and read(path)[3] == verdicts and recompute(path) == []
    assert oracle_store.position_verdicts("alhambra", source, args, 5_000)[1] == verdicts
    positions = made_by._positions
    monkeypatch.setattr(made_by, "_positions", lambda **kw: list(positions(**kw))[::-1])
    with pytest.raises(StaleOracle, match="other deals"):
        oracle_store.position_verdicts("alhambra", source, args, 5_000)

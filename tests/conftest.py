"""Test-run order: the longest tests first, longest of all first, so that the two workers
of ``pytest -n 2`` end together. Set in pyproject.toml, ``--dist load --maxschedchunk 1``
hands each worker one test at a time as it frees up (greedy scheduling, close to the best
for this order); ``--dist worksteal`` gave one worker the first half of the list, every
long test in it. And a parallel run on an empty numba cache compiles the kernels once
before the workers start (``tests.support.precompile``)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

# Substrings of the ids of the tests that take about ten seconds or more, longest first
# (``pytest --durations=80`` with a fresh numba cache, seconds on this machine on
# 2026-12-05, a slow hour, before that day's last trims: only their order is used). A test
# matching none runs after them, in file order.
LONG = ("::test_schedule_verdicts_agree_with_the_oracle",       # 165
        "refill_schedules_keep_the_model_s_structure",          # 120 (235 on 100 positions)
        "algerian.py::test_kernel_matches_oracle_on_2000",      # 100
        "refill_schedule_never_refutes_a_won_position",         # 96
        "restarts_match_oracle_on_400",                         # 79
        "most_home_equals_the_oracles",                         # 64, 28, 28
        "standard_alhambra_deals",                              # 44, 32
        "relaxation_keeps_verdicts_on_2000",                    # 42
        "projection_fires_only_on_lost_positions",              # 34
        "keeps_full_size_winning_lines",                        # 33
        "dominance_rule_keeps_verdicts",                        # 29 and less
        "refill_schedule_verdicts_agree",                       # 25
        "::test_schedule_never_refutes_a_won_position",         # 24
        "104_proved_lost_by_the_search",                        # 18 (alone, 2026-12-06)
        "idle_card_home", "notebook_runs", "matches_oracle_on_miniature_deals", "every_win_replays",
        "2000_miniature", "unbounded_numbers", "golden_counts", "projection_keeps_verdicts_on_2000",
        "full_size_deals_with_certified_lines", "ctrl_c_in_a_pack", "lazy_g0_equals", "reserve_order",
        "one_waste_pile_lines_never_repeat", "nested_search_leaves_the_state", "shared_table_keeps_verdicts",
        "reserve_blocked", "deal_through_inert_keeps_verdicts", "oracle_on_small_deals")


def _rank(nodeid: str) -> int:
    return next((i for i, s in enumerate(LONG) if s in nodeid), len(LONG))


# The families' compilation split in two about equal halves (``tests.support.precompile``): with an
# empty cache Alhambra's solves compiled in 150 s, Algerian's and Terrace's in 92 s, its
# searches for wins in 55 s (one core each, 2026-12-05). Those come last in the second
# process, so that they load the Alhambra kernel the first one has cached by then.
PRECOMPILE = (("alhambra",), ("algerian", "terrace", "wins:alhambra"))


def pytest_xdist_setupnodes(config, specs):
    """Before the workers of a parallel run start on an empty numba cache, compile most
    kernels once, in two processes (``tests.support.precompile``), rather than in every worker.
    (Within the session: the run's reported time includes it.)"""
    folder = os.environ.get("NUMBA_CACHE_DIR") or _default_cache_dir()
    if any(Path(folder).rglob("*.nbi")):
        return
    root = Path(__file__).resolve().parent.parent
    say = config.pluginmanager.get_plugin("terminalreporter").write_line
    say(f"compiling the numba kernels once before the tests start (an empty cache, {folder}): "
        f"about 3-5 minutes on two cores, more on a busy machine ...")
    t = time.monotonic()
    procs = [subprocess.Popen([sys.executable, "-m", "tests.support.precompile", *group], cwd=root) for group in PRECOMPILE]
    for p in procs:
        p.wait()            # a failure costs only time: the workers compile what is missing
    say(f"compiled in {time.monotonic() - t:.0f} s; the tests start")


def _default_cache_dir() -> str:
    from solver.jit import cache_dir
    return str(cache_dir())


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=lambda item: _rank(item.nodeid))          # stable: file order within a rank


@pytest.fixture
def reap():
    """``reap(p)``: the process ``p`` is killed at the test's end if it still runs (a failed
    assertion must not leave a long batch and its workers running; the workers die with
    their driver)."""
    procs = []
    yield procs.append
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait(timeout=60)

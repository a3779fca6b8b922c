"""Test-run order: the longest tests first, so that the two workers of ``pytest -n 2`` end
together (with ``--dist worksteal``, set in pyproject.toml, an idle worker takes queued
tests from the other)."""

import pytest

# Substrings of the test ids that take a minute or more (see `pytest --durations=40`).
LONG = ("2000_miniature", "dominance_rule_keeps_verdicts", "shared_table_keeps_verdicts",
        "matches_oracle_on_miniature_deals", "reserve_blocked_keeps_verdicts", "reserve_order_keeps_verdicts",
        "plain_order_matches_oracle_on_400", "deal_through_inert_keeps_verdicts", "oracle_on_small_deals",
        "most_home_equals_the_oracles")


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=lambda item: not any(s in item.nodeid for s in LONG))


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

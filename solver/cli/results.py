"""The commands of the results store: ``batch`` (solve seed ranges into it), ``report`` (the
published table), ``stats`` and ``export``."""

from __future__ import annotations

import sys
from typing import Optional

import click

from solver.batch import BatchRequest, BatchSummary, interrupted_by
from solver.cli.base import (TEXT, Count, FilePath, budget_options, dominance_rules, main, make_budget,
                             profile_option, resolve_rules, rule_option, warm_up_saying)
from solver.difficulty import TIERS
from solver.errors import EXIT_INTERRUPTED, EXIT_NOT_WON, RulesError, StoreError, printable
from solver.store import DEFAULT_DB, EXPORT_FORMATS
from solver.variants import get_variant


def _say(text: str) -> None:
    """A line on stderr: what a command tells of its work, apart from its output."""
    click.echo(text, err=True)


@main.command()
@click.argument("variant")
@click.option("--seeds", required=True, type=TEXT, metavar="RANGES", help="Game numbers: ranges and lists, e.g. 1-1000,5000,7000-7100.")
@rule_option
@profile_option
@budget_options
@click.option("--jobs", type=Count(min=1, max=256), default=None, help="Worker processes (default: all cores).")
@click.option("--db", default=DEFAULT_DB, type=TEXT, show_default=True, help="The results store (SQLite).")
@click.option("--rerun-unknown", is_flag=True, help="Re-solve only the seeds whose newest record is unknown.")
@click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option("--scheduler", default=None, type=TEXT, metavar="ADDRESS", help="Dask scheduler address (default: a local cluster).")
def batch(**options) -> None:
    """Solve VARIANT for every seed in --seeds into a results store (resumable). A winning
    line is shortened by one-move detours only (``patience solve --shorten-nodes`` does more)."""
    try:
        summary = _batch(BatchRequest(**options))      # the options are the request's fields
    except (KeyboardInterrupt, SystemError) as e:    # Ctrl-C before the workers started
        if not interrupted_by(e):
            raise
        summary = None
    if summary is None or summary.interrupted:
        click.echo("interrupted: every finished seed is stored; run the same command again to resume", err=True)
        sys.exit(EXIT_INTERRUPTED)
    if summary.rejected:
        sys.exit(StoreError.exit_code)


@main.command()
@click.option("--db", default=DEFAULT_DB, type=TEXT, show_default=True, help="The results store the batches write.")
@click.option("--out", default="results", type=FilePath(file_okay=False), show_default=True,
              help="The folder of the table and the records.")
@click.option("--jobs", type=Count(min=1, max=256), default=None, help="Worker processes (default: all cores).")
@click.option("--only", multiple=True, metavar="VARIANT",
              help="Solve only these variants' rows (repeatable); the files keep every row.")
@click.option("--games", type=Count(min=1, max=1_000_000), default=None,
              help="Solve at most this many games per row (a quick look; rows already published stay whole).")
@click.option("--no-solve", is_flag=True, help="Write the files from the store as it is; solve nothing.")
def report(db, out, jobs, only, games, no_solve) -> None:
    """The published win-rate table: solve every row of the plan (solver/report.py: variants,
    rule sets, games and budget) into the store, resumably, then write the table, the
    records and the rule sets into --out. The records already in --out made by this
    solver version at the plan's budget count as finished games: a report goes on from the
    published files on a machine without the store. A row being solved again stays as
    published until the new run covers as many games; meanwhile its new records are kept in
    --out/pending.csv.gz, which counts as finished games too. Interrupted, the report still
    writes the files."""
    from pathlib import Path
    from solver.batch import SOLVER_VERSION
    from solver.report import pending, published, solve_plan, write_report
    keys = {get_variant(v).key for v in only}
    kept, pend = published(Path(out), SOLVER_VERSION), pending(Path(out), SOLVER_VERSION)
    if no_solve and not Path(db).exists() and not (Path(out) / "records.csv.gz").exists():
        raise StoreError(f"--no-solve: no results store at {db} and no published records in {out}: nothing "
                         f"to write a table from")
    interrupted = not no_solve and solve_plan(out, kept, pend, _batch, _say, only=keys, games=games,
                                                jobs=jobs, db=db)
    write_report(db, out, games, kept, pend, _say)
    if interrupted:
        click.echo("interrupted: every finished game is stored; run the same command again to resume", err=True)
        sys.exit(EXIT_INTERRUPTED)


def _batch(req: BatchRequest) -> Optional[BatchSummary]:
    """The batch; returns its summary (None if there was nothing to solve)."""
    import os
    from solver import batch as batch_module
    from solver.batch import BatchProgress, parse_seeds, plan_jobs, run_batch, run_dask, run_local
    from solver.adapter import adapter_for
    from solver.store import Store
    if req.scheduler is not None and req.engine != "dask":
        raise RulesError("--scheduler is for --engine dask")
    r = resolve_rules(req.variant, req.rules, req.profile)
    seed_list = parse_seeds(req.seeds)
    dominance = dominance_rules(r, req.dominance)
    adapter_for(r, tuple(dominance))
    budget = make_budget(req.budget_nodes, req.time_limit, req.memory, req.no_restarts, rules=r)
    store = Store(req.db)
    store.claim_writer()
    todo, skipped = plan_jobs(store, r, seed_list, budget.nodes, budget.seconds, budget.memory,
                              tuple(dominance), req.rerun_unknown, budget.restarts)
    n = req.jobs or os.cpu_count() or 1
    click.echo(f"{r.describe()} (rules {r.hash()}): {len(seed_list)} seeds, {skipped} already stored, "
               f"{len(todo)} to solve with {n} {'dask' if req.engine == 'dask' else 'local'} workers; "
               f"budget {budget.nodes:,} nodes; store {req.db}", err=True)
    if not todo:
        return BatchSummary(total=0, skipped=skipped)
    summary = BatchSummary(total=len(todo), skipped=skipped)
    if req.engine == "dask":
        source = lambda js: run_dask(js, req.scheduler, n)          # noqa: E731
    else:
        source = lambda js: run_local(js, n, batch_module.solve_job)   # noqa: E731 (looked up now: tests replace it)
    try:
        click.echo(f"numba compile/load {warm_up_saying(r, tuple(dominance)):.2f} s", err=True)   # once, before workers start
        run_batch(store, todo, source, summary, BatchProgress(len(todo)))
    except KeyboardInterrupt:             # before the first seed (while compiling, say)
        summary.interrupted = True
    except SystemError as e:
        if not interrupted_by(e):
            raise
        summary.interrupted = True
    finally:
        store.close()
    c = summary.counts
    click.echo(f"stored {summary.done}: won {c['won']}, lost {c['lost']}, unknown {c['unknown']}", err=True)
    if summary.rejected:
        game, why = summary.rejected[0]
        StoreError(f"{len(summary.rejected)} records were not stored: not what the batch asked for, or a won line "
                   f"that does not replay on the driver (game {printable(str(game), 40)}: {why}); a worker of "
                   f"another version, or not ours; their seeds are solved again on resume").show()
    return summary


@main.command()
@click.option("--db", default=DEFAULT_DB, type=TEXT, show_default=True, help="The results store.")
@click.option("--variant", default=None, type=TEXT, help="Only this variant.")
@click.option("--rules-hash", default=None, type=TEXT, help="Only this rule set (hash as shown by batch / stats).")
@click.option("--seeds", default=None, type=TEXT, metavar="RANGES", help="Only these game numbers.")
@click.option("--format", "fmt", type=click.Choice(["table", "markdown", "csv", "json"]), default="table",
              show_default=True)
def stats(db, variant, rules_hash, seeds, fmt) -> None:
    """Win rates with Wilson 95% intervals, per variant and rule set."""
    from solver.batch import parse_seeds
    from solver.stats import group_stats, render
    from solver.store import Store
    keep = set(parse_seeds(seeds)) if seeds else None
    store = Store(db, readonly=True)
    groups = group_stats(store.latest(rules_hash=rules_hash,
                                      variant=get_variant(variant).key if variant else None),
                         (lambda g: g in keep) if keep is not None else None)
    store.close()
    if not groups:
        raise RulesError(f"no records in {db} match")
    click.echo(render(groups, fmt))


@main.command()
@click.option("--db", default=DEFAULT_DB, type=TEXT, show_default=True, help="The results store.")
@click.option("--format", "fmt", type=click.Choice(EXPORT_FORMATS), default="csv", show_default=True)
@click.option("--out", required=True, type=FilePath(dir_okay=False, allow_dash=True),
              help="The file to write ('-': standard output).")
@click.option("--variant", default=None, type=TEXT, help="Only this variant.")
@click.option("--rules-hash", default=None, type=TEXT, help="Only this rule set (hash as shown by batch / stats).")
@click.option("--winnable", "numbers", flag_value="won", default=None,
              help="Write only the game numbers whose newest record is won (certified), one a line, "
                   "for one variant and rule set.")
@click.option("--lost", "numbers", flag_value="lost",
              help="The same for the game numbers proved lost.")
@click.option("--difficulty", type=click.Choice(TIERS), default=None,
              help="With --winnable: only the games of this difficulty tier (docs/difficulty.md).")
def export(db, fmt, out, variant, rules_hash, numbers, difficulty) -> None:
    """Export every record (history included) as CSV, JSON Lines or Parquet, each won
    record with its difficulty tier; or, with --winnable or --lost, a list of game numbers
    a game can ship (--winnable --difficulty TIER: one tier's)."""
    from solver.difficulty import tier
    from solver.store import Store, games_with_verdict, write_lines, write_records
    if difficulty and numbers != "won":
        raise RulesError("--difficulty goes with --winnable")
    key = get_variant(variant).key if variant else None
    store = Store(db, readonly=True)
    where = "standard output" if out == "-" else out
    if numbers:
        latest = list(store.latest(rules_hash=rules_hash, variant=key))
        store.close()
        (name, rh), games = games_with_verdict(latest, numbers, db)
        kind = "winnable" if numbers == "won" else "lost"
        if difficulty:
            games = _of_tier(latest, games, rh, difficulty)
            kind = f"winnable {difficulty}"
        write_lines(games, out)
        click.echo(f"wrote {len(games)} {kind} game numbers of {name} "
                   f"(rules {rh}, {len(latest)} games in the store) to {where}", err=True)
        return
    rows = [dict(r, tier=tier(r["rules_hash"], r["nodes"]) if r["verdict"] == "won" else None)
            for r in store.all_records()
            if (key is None or r["variant"] == key) and (rules_hash is None or r["rules_hash"] == rules_hash)]
    store.close()
    if out == "-" and fmt == "parquet":
        raise RulesError("--out - (standard output) takes csv or jsonl, not parquet")
    write_records(rows, fmt, out)
    click.echo(f"wrote {len(rows)} records to {where}", err=True)


def _of_tier(latest: list[dict], games: list[str], rules_hash: str, wanted: str) -> list[str]:
    """The games of ``games`` (won) whose newest record is of difficulty tier ``wanted``."""
    from solver.difficulty import no_tiers_reason, tier
    if no_tiers_reason(rules_hash):
        raise RulesError(f"rules {rules_hash}: {no_tiers_reason(rules_hash)}")
    nodes = {r["game"]: r["nodes"] for r in latest}
    return [g for g in games if tier(rules_hash, nodes[g]) == wanted]


@main.command()
@click.option("--out", default="results", type=FilePath(file_okay=False), show_default=True,
              help="The folder of the published table; the lines go to its lines/ folder.")
@click.option("--only", multiple=True, metavar="VARIANT", help="Only these variants' rows (repeatable).")
@click.option("--games", type=Count(min=1), default=None, help="Solve at most this many games per row this run.")
@click.option("--jobs", type=Count(min=1, max=256), default=1, show_default=True, help="Worker processes.")
def lines(out, only, games, jobs) -> None:
    """Rebuild the published table's winning lines and proofs (OUT/lines/, one file a row):
    every decided game solved again at its row's budget by --jobs processes, resumable (an
    interrupted run goes on where it stopped). A game whose verdict now contradicts the
    table's stops it with an error."""
    import lzma
    from pathlib import Path
    from solver.report import read_files
    from solver.table_lines import rebuild, row_records
    folder = Path(out)
    if not (folder / "records.csv.gz").exists():
        raise StoreError(f"no published table in {out} (records.csv.gz)")
    records, sets = read_files(folder)
    keys = {get_variant(v).key for v in only}
    try:
        for rules_hash, rule_set in sets.items():
            if keys and rule_set["variant"] not in keys:
                continue
            n = rebuild(folder, rules_hash, row_records(records, rules_hash), rule_set, _say, games, jobs)
            _say(f"{rule_set['variant']} ({rules_hash}): {n:,} games solved this run")
    except (ValueError, lzma.LZMAError, EOFError) as e:
        raise StoreError(str(e)) from None
    except KeyboardInterrupt:
        click.echo("interrupted: every finished game is kept; run the same command again to resume", err=True)
        sys.exit(EXIT_INTERRUPTED)


@main.command()
@click.option("--out", default="results", type=FilePath(file_okay=False), show_default=True,
              help="The folder of the published table and its lines/.")
@click.option("--only", multiple=True, metavar="VARIANT", help="Only these variants' rows (repeatable).")
@click.option("--sample", type=Count(min=0), default=5, show_default=True,
              help="Lost games per row to solve again (at the row's budget).")
@click.option("--seed", type=Count(min=0), default=1, show_default=True, help="The seed of the sample.")
def audit(out, only, sample, seed) -> None:
    """Check the published table without trusting it: replay every shipped winning line
    (OUT/lines/) on the reference engine, and solve again a random sample of the lost
    games. Exits 0 when everything checked held, 1 when a line did not replay or a lost
    game was won."""
    from pathlib import Path
    from solver.report import read_files
    from solver.table_lines import audit_row, audit_text, row_records
    folder = Path(out)
    if not (folder / "records.csv.gz").exists():
        raise StoreError(f"no published table in {out} (records.csv.gz)")
    records, sets = read_files(folder)
    keys = {get_variant(v).key for v in only}
    failed = 0
    for rules_hash, rule_set in sets.items():
        if keys and rule_set["variant"] not in keys:
            continue
        a = audit_row(folder, rules_hash, row_records(records, rules_hash), rule_set, sample, seed,
                      lambda text: click.echo(f"  ... {text}", err=True) if sys.stderr.isatty() else None)
        click.echo(audit_text(a))
        failed += len(a.failed) + len(a.sample_failed)
    if failed:
        click.echo(f"error: {failed} games failed the audit", err=True)
        sys.exit(EXIT_NOT_WON)

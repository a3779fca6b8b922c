"""The commands that solve deals: ``solve`` (one deal, told to a person), ``verify`` (a deal
or a pack, told to a publisher's script by its exit status) and ``generate`` (a new pack)."""

from __future__ import annotations

import json
import sys

import click

from solver.cli.base import (Count, FilePath, PatienceCommand, not_an_input, budget_options, dominance_names, dominance_rules,
                             load_deal, main, make_budget, profile_option, resolve_rules, rule_option,
                             shorten_option, size_text, warm_up_saying)
from solver.cli.play import print_step
from solver.difficulty import TIERS
from solver.errors import (EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_LOST, EXIT_UNKNOWN, EXIT_WON, DealFileError,
                           InternalError, RulesError, printable)
from solver.kernels import family


def _progress(budget_nodes: int):
    """A live bar on stderr when it is a terminal (``solver.progress.Progress``: nodes of the
    budget, states), gone when the solve ends; else None."""
    from solver.progress import Progress
    if not sys.stderr.isatty():
        return None
    shown = Progress(budget_nodes, "nodes", leave=False)
    shown.show = lambda nodes, states, seconds: shown.update(nodes, f"{states:,} states")
    return shown


def _run_solver(deal, budget, dominance):
    from solver.driver import solve
    compile_s = warm_up_saying(deal.rules, tuple(dominance))
    prog = _progress(budget.nodes)
    try:
        res = solve(deal, budget, tuple(dominance), prog.show if prog else None)
    finally:
        if prog:
            prog.close()
    return res, compile_s


# What the CLI says of a line found by one of the core's searches for wins (``solver.driver.WIN_SEARCHES``).
_WIN_SEARCH_FINDS = {"beam": "found by a beam search after the search ran out of nodes",
                     "fresh_beam": "found by a beam search (never keeping a position twice) after the search ran "
                                   "out of nodes",
                     "nested": "found by a nested search (rollouts) after the search ran out of nodes"}


def _found_by(rules, proof: str) -> str:
    """What found a winning line that the search did not: a core search for wins, or one
    of the family's rules or models (its ``Family.wins`` and each rule's ``finds``)."""
    if proof in _WIN_SEARCH_FINDS:
        return _WIN_SEARCH_FINDS[proof]
    fam = family(rules.family)
    return fam.wins.get(proof) or fam.rule(proof).finds


def _verdict_line(deal, res) -> str:
    if res.verdict == "won":
        base = f" with base {res.base()}" if res.base() else ""
        found = f"; the search's line: {res.search_moves}" if res.search_moves and res.search_moves != len(res.moves) else ""
        by = f"; {_found_by(deal.rules, res.proof)}" if res.proof else ""
        return f"{deal.label()}: won in {len(res.moves)} moves{base} (certified by the reference engine{found}{by})"
    if res.proof:                                   # lost by a rule outside the search
        return f"{deal.label()}: lost (proved by {family(deal.rules.family).rule(res.proof).proves})"
    if res.verdict == "lost":
        return f"{deal.label()}: lost (complete search)"
    total = 2 * deal.rules["suits"] * deal.rules["ranks"]
    return (f"{deal.label()}: unknown ({res.reason}); the furthest line searched put {res.most_home} of "
            f"{total} cards on the foundations")


@main.command()
@click.argument("variant", required=False)
@click.argument("game_number", required=False)
@click.option("--deal", "deal_file", type=FilePath(dir_okay=False), help="Solve the deal in this deal file.")
@rule_option
@profile_option
@budget_options
@shorten_option
@click.option("--out", type=FilePath(dir_okay=False), help="Write the solution file here.")
@click.option("--show", is_flag=True, help="Print the winning line step by step with boards.")
def solve(variant, game_number, deal_file, rules, profile, budget_nodes, time_limit, memory, dominance, no_restarts,
          shorten_nodes, out, show) -> None:
    """Decide VARIANT game GAME_NUMBER (or --deal FILE): won, lost or unknown."""
    from solver.formats import write_solution
    if deal_file:
        if variant or game_number:
            raise RulesError("give either --deal FILE or VARIANT GAME_NUMBER, not both")
        deal = load_deal(deal_file, None, rules, profile)
    else:
        if not variant or not game_number:
            raise RulesError("usage: patience solve VARIANT GAME_NUMBER  (or: patience solve --deal FILE)")
        deal = load_deal(variant, game_number, rules, profile)
    budget = make_budget(budget_nodes, time_limit, memory, no_restarts, shorten_nodes, deal.rules)
    res, compile_s = _run_solver(deal, budget, dominance_rules(deal.rules, dominance))
    click.echo(_verdict_line(deal, res))
    click.echo(f"rules: {deal.rules.describe()} (hash {deal.rules.hash()})")
    per_state = res.table_bytes / res.states if res.states else 0
    nodes = (f"nodes {res.nodes:,} ({res.nodes - res.win_nodes:,} of the budget, {res.win_nodes:,} after it in "
             f"searches for wins)" if res.win_nodes else f"nodes {res.nodes:,}")
    click.echo(f"{nodes}  unique states {res.states:,}  search {res.seconds:.3f} s  "
               f"certify {res.certify_seconds:.3f} s  (numba compile/load {compile_s:.2f} s)  table {res.table_bytes / 2 ** 20:.0f} MiB "
               f"({per_state:.1f} bytes/state)")
    if res.verdict == "unknown":
        if res.reason == "nodes":
            hint = f"--budget-nodes {budget.nodes * 10}"
        elif res.reason == "time":
            hint = f"--time-limit {budget.seconds * 10:g}"
        else:
            hint = f"--memory {size_text(budget.memory * 2)}"      # the table grows by doubling
        click.echo(f"to search further, rerun with {hint}")
    if res.verdict == "won":
        if show:
            from solver.playback import replay as replay_moves
            replay_moves(deal, res.moves, print_step(True))
        else:
            from solver.moves import format_moves
            click.echo(format_moves(res.moves))
    if out:
        write_solution(res.solution(), deal, out)
        click.echo(f"wrote {out}", err=True)


def _check_writable(path: str) -> None:
    """An error now if a file cannot be written at ``path`` (its folder missing or read-only)."""
    import os
    from pathlib import Path
    folder = Path(path).absolute().parent
    if not folder.is_dir():
        raise DealFileError(f"cannot write {path}: no folder {folder}")
    if not os.access(folder, os.W_OK):
        raise DealFileError(f"cannot write {path}: {folder} is not writable")


class VerifyCommand(PatienceCommand):
    """``verify``'s exit status is read by scripts: every error of the input (usage errors
    included: click's 2 means unknown here) is 3, anything else a bug, 4."""

    def parse_args(self, ctx, args):
        try:
            return super().parse_args(ctx, args)
        except click.ClickException as e:
            e.exit_code = EXIT_BAD_INPUT
            raise

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.ClickException as e:
            e.exit_code = EXIT_BAD_INPUT
            raise
        except (click.exceptions.Exit, click.Abort):
            raise
        except Exception as e:        # SystemExit and KeyboardInterrupt are not Exceptions
            raise InternalError(f"internal error ({type(e).__name__}: {printable(e, 200)}); please report it") from None


@main.command(cls=VerifyCommand)
@click.argument("deal_file", type=FilePath(dir_okay=False))
@budget_options
@shorten_option
@click.option("--out", type=FilePath(dir_okay=False),
              help="Write the solution file here (a .jsonl DEAL_FILE: one solution per line, appended "
                   "as each deal is done; running the same command again resumes).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per deal instead of a line.")
@click.option("--jobs", type=Count(min=1, max=256), default=None,
              help="Worker processes for a .jsonl DEAL_FILE (default: all cores).")
def verify(deal_file, budget_nodes, time_limit, memory, dominance, no_restarts, shorten_nodes, out, as_json,
           jobs) -> None:
    """Is the deal in DEAL_FILE winnable? For publishers. A DEAL_FILE ending in .jsonl holds
    one deal per line (a pack): every deal is verified, in parallel, one line each as it
    is done (a bad line is reported and the rest still verified), then a summary.

    Exit status: 0 winnable (certified; the solution is written with --out), 1 proved
    unwinnable, 2 unknown within the budget, 3 bad input (usage errors included), 4 an
    internal error (a bug: please report it). For a pack: 3 if any line is not a deal,
    else 1 if any deal is proved unwinnable, else 2 if any is unknown, else 0."""
    from solver.formats import read_deal, write_solution_doc
    from pathlib import Path
    budget = make_budget(budget_nodes, time_limit, memory, no_restarts, shorten_nodes)
    names = dominance_names(dominance)
    if out:
        _check_writable(out)              # before the solve, or its verdict would be lost
        not_an_input(out, [deal_file], "the solution")
    if Path(deal_file).suffix == ".jsonl":
        _verify_pack(Path(deal_file), budget, budget_nodes is None, names, jobs, Path(out) if out else None, as_json)
    deal = read_deal(deal_file)
    budget = make_budget(budget_nodes, time_limit, memory, no_restarts, shorten_nodes, deal.rules)
    warm_up_saying(deal.rules, dominance_rules(deal.rules, names))   # a rule these rules refuse: bad input, before the solve
    res = _solve_for_verify(deal, budget, names)
    _print_verdict(res, deal_file, budget, out, as_json)
    if out:
        write_solution_doc(res["solution"], out)
    sys.exit({"won": EXIT_WON, "lost": EXIT_LOST, "unknown": EXIT_UNKNOWN}[res["verdict"]])


def _verify_pack(path, budget, per_variant, names, jobs, out, as_json) -> None:
    """``verify`` on a pack: the lines, the summary, the exit status; never returns."""
    import os
    from solver.batch import run_local
    from solver.pack import verify_pack
    if out is not None and out.resolve() == path.resolve():
        raise DealFileError(f"--out {out} is the pack itself")
    warm_up_saying()

    def report(res, label, resumed):
        _print_verdict(res, label, budget, str(out) if out else None, as_json, resumed)
    summary = verify_pack(path, budget, names, jobs or os.cpu_count() or 1, out, report,
                          lambda e: e.show(), run_local, per_variant)
    c = summary.counts
    resumed = f" ({summary.resumed} from {out})" if summary.resumed else ""
    click.echo(f"{summary.deals} deals: winnable {c['won']}, unwinnable {c['lost']}, unknown {c['unknown']}, "
               f"bad lines {len(summary.bad)}{resumed}", err=True)
    if summary.interrupted:
        click.echo("interrupted: every finished deal is in the solutions file; run the same command again "
                   "to resume" if out else "interrupted (without --out nothing is kept)", err=True)
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(EXIT_BAD_INPUT if summary.bad else EXIT_LOST if c["lost"] else EXIT_UNKNOWN if c["unknown"]
             else EXIT_WON)


def _solve_for_verify(deal, budget, names) -> dict:
    """Solve one deal: the figures ``_print_verdict`` shows, and its solution document."""
    from solver.pack import PackJob, verify_job
    from solver.formats import deal_to_json
    return verify_job(PackJob(0, deal_to_json(deal), budget.nodes, budget.seconds, budget.memory, budget.restarts,
                              names, budget.shorten))


def _print_verdict(res: dict, label, budget, out, as_json, resumed=False) -> None:
    """One deal's verdict: a line, or a JSON object."""
    verdict, detail = res["verdict"], res["reason"]
    doc = res["solution"]
    if as_json:
        click.echo(json.dumps({
            "deal": label, "checksum": doc["deal"]["checksum"], "variant": doc["variant"], "rules": doc["rules"],
            "verdict": verdict, "reason": detail, "moves": res["moves"], "search_line_moves": res.get("search_moves"),
            "base": res["base"], "nodes": res["nodes"], "states": res["states"], "seconds": res["seconds"],
            "most_home": res["most_home"], "difficulty": res.get("difficulty"), "budget": doc["producer"]["budget"],
            "solution": out, "resumed": resumed}))
    else:
        words = {"won": "winnable", "lost": "unwinnable (proved)", "unknown": "unknown"}[verdict]
        tier = (res.get("difficulty") or {}).get("tier")
        extra = (f" in {res['moves']} moves" + (f" with base {res['base']}" if res["base"] else "")
                 + (f" (difficulty: {tier})" if tier else "")
                 if verdict == "won" else (f" ({detail})" if detail else ""))
        click.echo(f"{label}: {words}{extra}{' (stored)' if resumed else ''}")


@main.command()
@click.argument("variant")
@click.option("--winnable", is_flag=True, help="Keep the deals certified winnable (each with its winning line).")
@click.option("--unwinnable", is_flag=True, help="Keep the deals proved unwinnable.")
@click.option("--difficulty", type=click.Choice(TIERS), default=None,
              help="With --winnable: keep only the deals of this difficulty tier (docs/difficulty.md).")
@click.option("--count", type=Count(min=1, max=1_000_000), required=True, help="How many deals to keep.")
@click.option("--seed", type=Count(min=0, max=10 ** 18), required=True,
              help="The seed of the shuffles: the same seed gives the same deals.")
@click.option("--max-tries", type=Count(min=1, max=10 ** 8), default=None,
              help="Stop after this many shuffles (default: 100 per deal wanted).")
@rule_option
@profile_option
@budget_options
@shorten_option
@click.option("--jobs", type=Count(min=1, max=256), default=None, help="Worker processes (default: all cores).")
@click.option("--out", required=True, type=FilePath(dir_okay=False),
              help="The pack to write (.jsonl, one deal a line); the solutions go beside it, in "
                   "OUT's name with .solutions.jsonl.")
def generate(variant, winnable, unwinnable, difficulty, count, seed, max_tries, rules, profile, budget_nodes, time_limit,
             memory, dominance, no_restarts, shorten_nodes, jobs, out) -> None:
    """New random deals of VARIANT, kept only when certified winnable (--winnable) or proved
    unwinnable (--unwinnable): a publisher's pack, reproducible from --seed. Each deal
    records its shuffle and how many shuffles were tried for it; a deal whose search ends
    unknown is never kept."""
    import os
    from pathlib import Path
    from solver.batch import run_local
    from solver.generate import generate as generate_pack
    if winnable == unwinnable:
        raise RulesError("say which deals to keep: --winnable or --unwinnable (one of them)")
    want = "winnable" if winnable else "unwinnable"        # or, with --difficulty, the tier
    path = Path(out)
    if path.suffix != ".jsonl":
        raise RulesError(f"--out {out}: a pack is a .jsonl file")
    solutions = path.with_name(path.stem + ".solutions.jsonl")
    for p in (path, solutions):
        if os.path.lexists(p):            # a pack is written whole: never over an earlier one (nor a link)
            raise RulesError(f"{p} exists: remove it or give another --out")
        _check_writable(str(p))
    r = resolve_rules(variant, rules, profile)
    if difficulty:
        from solver.difficulty import no_tiers_reason
        if not winnable:
            raise RulesError("--difficulty goes with --winnable")
        if no_tiers_reason(r.hash()):
            raise RulesError(f"{r.describe()} (rules {r.hash()}): {no_tiers_reason(r.hash())}")
        want = difficulty
    names = dominance_names(dominance)
    dominance_rules(r, names)                  # a rule these rules refuse: an error now
    budget = make_budget(budget_nodes, time_limit, memory, no_restarts, shorten_nodes, r)
    if difficulty:
        _note_tier_budget(r.hash(), budget.nodes)
    tries = max_tries or 100 * count
    click.echo(f"{r.describe()} (rules {r.hash()}): {count} {want} deals from shuffles of seed {seed} "
               f"(at most {tries:,} tries); budget {budget.nodes:,} nodes", err=True)
    warm_up_saying(r, dominance_rules(r, names))
    shown, progress = _generate_progress(count)
    try:
        summary = generate_pack(r, want, count, seed, tries, budget, names, jobs or os.cpu_count() or 1, path,
                                solutions, run_local, progress)
    finally:
        shown.close()
    c = summary.counts
    click.echo(f"kept {summary.kept} of {summary.tried} tried (won {c['won']}, lost {c['lost']}, "
               f"unknown {c['unknown']}): {out}, solutions {solutions}", err=True)
    if summary.interrupted:
        click.echo(f"interrupted: the {summary.kept} deals kept so far are in {out} (the same --seed gives "
                   f"them again: a new run with another --out reproduces and goes on)", err=True)
        sys.exit(EXIT_INTERRUPTED)
    if summary.kept < count:
        raise RulesError(f"only {summary.kept} of {count} {want} deals in {summary.tried:,} tries; they are kept "
                         f"in {out} and {solutions}. The same --seed finds them again first: to go on, run "
                         f"again with another --out and a larger --max-tries (or --budget-nodes)")


def _note_tier_budget(rules_hash: str, nodes: int) -> None:
    """A note when the budget is not the one the tiers were calibrated at: a deal's nodes
    (its difficulty) depend on the budget's plan of searches (docs/difficulty.md)."""
    from solver.difficulty import row
    table = row(rules_hash)["budget_nodes"]
    if table and table != nodes:
        click.echo(f"note: the tiers were calibrated at {table:,} nodes a deal (the table's), this budget is "
                   f"{nodes:,}: a deal won after {table:,} nodes is beyond every boundary (expert)", err=True)


def _generate_progress(count: int):
    """Progress of ``generate`` (``solver.progress.Progress``): deals kept of ``count``, and
    shuffles tried; returns the display and the function ``generate`` calls."""
    from solver.progress import Progress
    shown = Progress(count, "deals kept")
    return shown, lambda s: shown.update(s.kept, f"tried {s.tried}", s.kept == count)

"""``patience view`` in a real browser: headless Chromium driven by Selenium opens the page
(a file:// URL), steps through a solved deal with the keys and the buttons, and at each step
checks that the board the page shows (its piles' data attributes) is the reference
engine's position after that many moves; auto-play must advance and stop.

Needs the Debian packages ``chromium`` and ``chromium-driver`` (/usr/bin/chromium,
/usr/bin/chromedriver) and ``selenium`` (the ``test`` extra). Without them the test is
skipped, except when the environment variable ``CI`` is set: then it fails (.ci/run
installs them and sets it).

Screenshots of the first and a middle step go to ``$PATIENCE_TEST_ARTIFACTS`` if set, else
to ``test-artifacts/`` at the repository's root (ignored by git):
``view-step-first.png`` and ``view-step-middle.png``.
"""

import os
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.formats import read_solution
from solver.moves import CARD_MOVE, format_move
from tests.cli.test_view import engine_positions

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("PATIENCE_TEST_ARTIFACTS") or ROOT / "test-artifacts")
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"

# What the page shows, read from its DOM in one call: every pile's cards (bottom to top),
# the stock's count, the step, and what is marked as the move just made.
READ_BOARD = """
const board = document.getElementById("board"), piles = {};
for (const p of board.querySelectorAll("[data-pile]"))
  piles[p.dataset.pile] = p.dataset.pile === "stock" ? Number(p.dataset.count) : p.dataset.cards;
return {step: Number(board.dataset.step), steps: Number(board.dataset.steps), phase: board.dataset.phase,
        redeals: Number(board.dataset.redeals), playing: board.dataset.playing, piles: piles,
        stepInfo: document.getElementById("step-info").textContent,
        moveInfo: document.getElementById("move-info").textContent,
        src: [...board.querySelectorAll(".pile.src")].map(p => p.dataset.pile),
        dst: [...board.querySelectorAll(".card.dst")].map(c => c.dataset.card)};
"""


def unavailable(what: str) -> None:
    """Skip locally; under CI the browser test must run, so a missing browser fails it."""
    if os.environ.get("CI"):
        pytest.fail(f"{what}: CI must run the browser test")
    pytest.skip(what)


@pytest.fixture(scope="module")
def browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        unavailable("selenium is not installed (pip install -e '.[test]')")
    for path in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(path):
            unavailable(f"no {path} (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1200,1000"):
        options.add_argument(arg)
    # The driver's path given: Selenium Manager (which would look on the network) is not run.
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def test_the_page_shows_the_engine_s_positions_in_a_browser(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait

    sol, page = tmp_path / "sol.json", tmp_path / "game.html"
    # Algerian #1: won in milliseconds once its kernels are compiled (10 s the first time).
    r = CliRunner().invoke(main, ["solve", "algerian", "1", "--budget-nodes", "200000", "--out", str(sol)])
    assert r.exit_code == 0 and sol.exists(), r.output
    solution, deal = read_solution(sol)
    moves = solution.moves
    n = len(moves)
    assert solution.outcome == "won" and n > 20
    expected = engine_positions(deal, moves)
    r = CliRunner().invoke(main, ["view", str(sol), "--out", str(page)])
    assert r.exit_code == 0, r.output
    browser.get(page.as_uri())

    def shows(k: int) -> None:
        """The page is at step ``k`` and shows the engine's position after ``k`` moves."""
        got = browser.execute_script(READ_BOARD)
        want = expected[k]
        assert got["step"] == k and got["steps"] == n and got["stepInfo"] == f"step {k} of {n}"
        piles = {label: cards for label, cards in want.items() if label not in ("stock", "redeals", "phase")}
        assert got["piles"] == {**piles, "stock": want["stock"]}, f"step {k}"
        assert (got["phase"], got["redeals"]) == (want["phase"], want["redeals"])
        if k == 0:
            assert got["moveInfo"] == "start position" and not got["src"] and not got["dst"]
            return
        move = moves[k - 1]
        assert got["moveInfo"] == f"move {k}: {format_move(move)}"
        if move.kind == CARD_MOVE:
            assert got["src"] == [f"{move.src[0]}{move.src[1]}"]
            assert got["dst"] == [format_move(move).split(":")[1]]

    def press(keys: str) -> None:
        ActionChains(browser).send_keys(keys).perform()

    def click(button: str) -> None:
        browser.find_element(By.ID, button).click()

    def screenshot(name: str) -> None:
        """The whole page: the window made as tall as the page first."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(1200, max(1000, height + 300))     # + the window's own frame
        browser.save_screenshot(str(ARTIFACTS / name))
        browser.set_window_size(1200, 1000)

    shows(0)
    screenshot("view-step-first.png")
    press(Keys.ARROW_RIGHT)
    shows(1)
    mid = n // 2
    press(Keys.ARROW_RIGHT * (mid - 1))
    shows(mid)
    screenshot("view-step-middle.png")
    press(Keys.END)
    shows(n)
    assert "won" in browser.find_element(By.CSS_SELECTOR, ".verdict").text.lower()
    press(Keys.ARROW_LEFT)
    shows(n - 1)
    press(Keys.ARROW_LEFT * 3)
    shows(n - 4)
    click("prev")
    shows(n - 5)
    click("next")
    shows(n - 4)
    press(Keys.HOME)
    shows(0)
    click("last")
    shows(n)
    click("first")
    shows(0)

    # Auto-play: Space starts it, it advances on its own, Space stops it where it is.
    Select(browser.find_element(By.ID, "speed")).select_by_value("30")
    press(Keys.SPACE)
    WebDriverWait(browser, 10).until(lambda b: b.execute_script(READ_BOARD)["step"] >= 5)
    press(Keys.SPACE)
    stopped = browser.execute_script(READ_BOARD)
    assert stopped["playing"] == "false"
    time.sleep(0.2)
    shows(stopped["step"])                   # has not moved since, and is the engine's position
    # The play button: near the end it plays to the end and stops there; at the end it
    # starts again from the start.
    press(Keys.END + Keys.ARROW_LEFT * 5)
    click("play")
    WebDriverWait(browser, 10).until(lambda b: b.execute_script(READ_BOARD)["playing"] == "false")
    shows(n)
    click("play")
    WebDriverWait(browser, 10).until(lambda b: 2 <= b.execute_script(READ_BOARD)["step"] < n)
    click("play")
    stopped = browser.execute_script(READ_BOARD)
    assert stopped["playing"] == "false" and stopped["step"] < n
    shows(stopped["step"])

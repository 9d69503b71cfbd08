"""CPU per human action on a game screen, next to a bare Textual app's redraw.

Usage: .venv/bin/python bench/tui_redraw.py [ACTIONS] [--stock-footer] [--root CHECKOUT]
(default 40 actions per game). The real app runs headless at 80x24 (Textual's run_test): a
4-player Money! game (one human, three bots: space + Enter bids the highlighted card, 1 takes
market side I) and a 3-player 7 Wonders game (one human, two bots: d sells the highlighted
card). The figure is the CPU time of this process from the first key of a human action until
the screen has settled again (the table's step, the bots' answers, every redraw), divided by
the number of human actions; the bare app is one Static updated by a key, measured the same
way, so the difference is what gamenight adds. `--stock-footer` puts Textual's own Footer back
(it is rebuilt at every redraw) to show what the game footer saves. CPU time, not wall time,
so a busy machine does not inflate the figures much.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(sys.argv[sys.argv.index("--root") + 1]) if "--root" in sys.argv else Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # --root DIR: measure another checkout (e.g. main, before a change)

from textual.app import App, ComposeResult  # noqa: E402
from textual.binding import Binding  # noqa: E402
from textual.widgets import Footer, Static  # noqa: E402

from tui.app import GamenightApp  # noqa: E402
from tui.config import Config, UiConfig  # noqa: E402
from tui.screens.end import EndScreen  # noqa: E402
from tui.screens.new_game import GameSetup  # noqa: E402

try:  # absent before the game footer: the bench also measures older checkouts
    from tui.widgets.footer import GameFooter
except ImportError:  # pragma: no cover
    GameFooter = None  # type: ignore[assignment,misc]


async def settle(pilot) -> None:
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def money_keys(screen) -> list[str]:
    if getattr(screen, "bidding", False):
        return ["space", "enter"]
    if getattr(screen, "choosing", False):
        return ["1"]
    return []


def seven_wonders_keys(screen) -> list[str]:
    return ["d"] if getattr(screen, "picking", False) else []


DRAWS = [0]


def count_draws() -> None:
    """Count the game screens' redraws (one per table event or key that changes the view)."""
    import tui.games.base as base

    draw = base.GameScreen._draw

    def counted(self) -> None:
        DRAWS[0] += 1
        draw(self)

    base.GameScreen._draw = counted


async def game_cpu(game: str, players: int, keys_for, actions: int) -> tuple[float, int, int, float]:
    """(CPU ms per human action, actions measured, footer changes, redraws per action)."""
    DRAWS[0] = 0
    config = Config(ui=UiConfig(bell=False, bot_delay=0.0))
    spent, done, seed = 0.0, 0, 0
    rebuilds = 0
    while done < actions:
        seed += 1
        app = GamenightApp(start=GameSetup(game, players, players - 1, seed=seed, names=["Ann"], bot_delay=0),
                           config=config)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            footers = app.screen.query(GameFooter) if GameFooter is not None else []
            footer = footers.first() if footers else None
            idle = 0
            while done < actions and not isinstance(app.screen, EndScreen) and idle < 20:
                keys = keys_for(app.screen)
                if not keys:
                    idle += 1
                    await settle(pilot)
                    continue
                idle = 0
                start = time.process_time()
                for key in keys:
                    await pilot.press(key)
                await settle(pilot)
                spent += time.process_time() - start
                done += 1
            rebuilds += footer.rebuilds + getattr(footer, "relabels", 0) if footer is not None else 0
    return 1000 * spent / done, done, rebuilds, DRAWS[0] / done


class BareApp(App[None]):
    """The floor: one Static redrawn by a key, with Textual's footer."""

    BINDINGS = [Binding("space", "bump", "Bump", show=True)]

    def compose(self) -> ComposeResult:
        yield Static("0", id="count")
        yield Footer()

    def action_bump(self) -> None:
        widget = self.query_one("#count", Static)
        widget.update(str(int(str(widget.render())) + 1))


async def bare_cpu(presses: int) -> float:
    app = BareApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        start = time.process_time()
        for _ in range(presses):
            await pilot.press("space")
            await settle(pilot)
        return 1000 * (time.process_time() - start) / presses


def use_stock_footer() -> None:
    import tui.games.base as base

    base.GameFooter = lambda rank=None: Footer()  # type: ignore[assignment,misc]


async def main(actions: int) -> None:
    bare = await bare_cpu(actions)
    count_draws()
    money, n_money, money_rebuilds, money_draws = await game_cpu("money", 4, money_keys, actions)
    sw, n_sw, sw_rebuilds, sw_draws = await game_cpu("seven_wonders", 3, seven_wonders_keys, actions)
    footer = "Textual's stock footer" if "--stock-footer" in sys.argv else "the game footer"
    print(f"tui redraw, 80x24, CPU per human action ({footer}):")
    print(f"  bare Textual app, one Static per key:  {bare:6.1f} ms")
    print(f"  Money!, 4 players (3 bots):            {money:6.1f} ms  ({n_money} actions, "
          f"{money_draws:.1f} redraws each, {money / money_draws:.1f} ms a redraw; "
          f"footer changed {money_rebuilds} times)")
    print(f"  7 Wonders, 3 players (2 bots):         {sw:6.1f} ms  ({n_sw} actions, "
          f"{sw_draws:.1f} redraws each, {sw / sw_draws:.1f} ms a redraw; footer changed {sw_rebuilds} times)")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a.isdigit()]
    if "--stock-footer" in sys.argv:
        use_stock_footer()
    asyncio.run(main(int(args[0]) if args else 40))

"""Helpers for TUI tests: settle a pilot, read the screen as text."""

from __future__ import annotations


async def settle(pilot, rounds: int = 3) -> None:
    """Let workers (table steps, bots) finish and the screen redraw."""
    for _ in range(rounds):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def screen_text(app) -> str:
    """What the terminal shows now, as plain text lines."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())

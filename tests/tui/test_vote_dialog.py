"""The vote dialog: it says who stalls and why, and returns the player's choice."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Static

from tui.screens.vote import LeaveDialog, VoteDialog, vote_question


def test_the_question_names_the_seat_the_cause_and_the_cost() -> None:
    late = vote_question({"seats": (2,), "cause": "late", "names": ["Cy"], "voted": None})
    assert late.startswith("Cy did not play in time.") and "Cy placed last" in late
    gone = vote_question({"seats": (1,), "cause": "offline", "names": ["Bo"], "voted": "wait"})
    assert "Bo went offline" in gone and "placed last" not in gone and "You voted: wait." in gone


async def test_each_key_of_the_dialog_returns_its_choice() -> None:
    options = {"seats": (2,), "cause": "proof", "names": ["Cy"], "voted": None}
    for key, expected in (("e", "end"), ("w", "wait"), ("a", "abandon"), ("escape", None)):
        answers: list = []
        app = App()
        async with app.run_test(size=(80, 24)) as pilot:
            app.push_screen(VoteDialog(options), answers.append)
            await pilot.pause()
            assert "Cy was proven to cheat" in str(app.screen.query_one("#dialog-message", Static).render())
            await pilot.press(key)
            await pilot.pause()
        assert answers == [expected]


async def test_the_leave_dialog_offers_a_bot_for_the_seat() -> None:
    answers: list = []
    app = App()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(LeaveDialog("Leave this game?"), answers.append)
        await pilot.pause()
        await pilot.press("b")
        await pilot.pause()
    assert answers == ["bot"]

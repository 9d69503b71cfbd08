"""Sheriff goods as text: names, styles, counts by kind (pure helpers, no widgets)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.text import Text

from engine.core import HIDDEN
from engine.sheriff.cards import GOODS, IDX, KIND, NAME, VALUE
from engine.sheriff.state import Inspection

KIND_STYLE = {"legal": "green", "contraband": "red", "royal": "magenta"}
GOOD_STYLE = {"apple": "bold green", "cheese": "bold yellow", "bread": "bold #d7875f", "chicken": "bold white"}
OUTCOME_WORD = {"passed": "passed", "deal": "deal", "inspected": "opened"}
OUTCOME_SHORT = {"passed": "pass", "deal": "deal", "inspected": "open"}
REVEAL_SECONDS = 0.35
"""Time between two cards of an opened bag being turned over."""


# ---- card text ------------------------------------------------------------------------------
def good_style(good: str) -> str:
    if good == HIDDEN:
        return "dim"
    return GOOD_STYLE.get(good) or KIND_STYLE[KIND[IDX[good]]]


def good_name(good: str) -> str:
    return "?" if good == HIDDEN else NAME[good]


def good_text(good: str, n: int | None = None) -> Text:
    """A good by the name on its card ("Green Apples 2"), never its id."""
    name = good_name(good)
    return Text(name if n is None else f"{name} {n}", style=good_style(good))


def by_kind(cards: Sequence[str]) -> list[tuple[str, int]]:
    """(good, count) in card order, unknown cards ("?") last."""
    counts = Counter(cards)
    out = [(g, counts[g]) for g in GOODS if counts[g]]
    if counts[HIDDEN]:
        out.append((HIDDEN, counts[HIDDEN]))
    return out


def goods_text(cards: Sequence[str], sep: str = " · ", empty: str = "nothing") -> Text:
    if not cards:
        return Text(empty, style="dim")
    return Text(sep).join(good_text(g, n) for g, n in by_kind(cards))


def value(cards: Sequence[str]) -> int:
    return sum(VALUE[IDX[c]] for c in cards if c != HIDDEN)


def inspection_words(inspection: Inspection) -> str:
    """What opening a bag does, in a few words, for the merchant who knows the bag."""
    if inspection.honest:
        return f"honest: Sheriff pays you {inspection.fine}"
    lost = ", ".join(f"{good_name(g)} {n}" for g, n in by_kind(inspection.confiscated))
    return f"lie: {len(inspection.kept)} kept, you pay {inspection.fine} ({lost} lost)"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"

"""Sheriff goods as text: names, styles, counts by kind (pure helpers, no widgets)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.text import Text

from engine.core import HIDDEN
from engine.sheriff.cards import GOODS, IDX, KIND, NAME, VALUE
from engine.sheriff.state import Inspection, Unpack

KIND_STYLE = {"legal": "green", "contraband": "red", "royal": "magenta"}
GOOD_STYLE = {"apple": "bold green", "cheese": "bold yellow", "bread": "bold #d7875f", "chicken": "bold white"}
OUTCOME_WORD = {"passed": "passed", "deal": "deal", "inspected": "opened"}
OUTCOME_SHORT = {"passed": "pass", "deal": "deal", "inspected": "open"}
REVEAL_SECONDS = 0.35
"""Time between two cards of an opened bag being turned over."""


# ---- card text ------------------------------------------------------------------------------
def good_style(good: str) -> str:
    if good not in IDX:  # the hidden card (anything else unknown is shown as one, never raised)
        return "dim"
    return GOOD_STYLE.get(good) or KIND_STYLE[KIND[IDX[good]]]


def good_name(good: str) -> str:
    return NAME.get(good, "?")


def good_text(good: str, n: int | None = None) -> Text:
    """A good by the name on its card ("Green Apples 2"), never its id."""
    name = good_name(good)
    return Text(name if n is None else f"{name} {n}", style=good_style(good))


def by_kind(cards: Sequence[str]) -> list[tuple[str, int]]:
    """(good, count) in card order, unknown cards ("?") last."""
    counts = Counter(cards)
    out = [(g, counts[g]) for g in GOODS if counts[g]]
    unknown = sum(n for g, n in counts.items() if g not in IDX)
    if unknown:
        out.append((HIDDEN, unknown))
    return out


def goods_text(cards: Sequence[str], sep: str = " · ", empty: str = "nothing") -> Text:
    if not cards:
        return Text(empty, style="dim")
    return Text(sep).join(good_text(g, n) for g, n in by_kind(cards))


def value(cards: Sequence[str]) -> int:
    return sum(VALUE[IDX[c]] for c in cards if c in IDX)


def inspection_words(inspection: Inspection, *, short: bool = False) -> str:
    """What opening a bag does, in a few words, for the merchant who knows the bag (`short`:
    how many goods it loses, not which)."""
    if inspection.honest:
        return f"honest: Sheriff pays you {inspection.fine}"
    said = f"lie: {len(inspection.kept)} kept, you pay {inspection.fine}"
    if short:
        return f"{said}, {len(inspection.confiscated)} lost"
    lost = ", ".join(f"{good_name(g)} {n}" for g, n in by_kind(inspection.confiscated))
    return f"{said} ({lost} lost)"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def unpack_words(unpack: Unpack, bag_size: int) -> str:
    """An emptied bag in words: goods handed over, legal goods face up, the rest face down."""
    parts = []
    if unpack.delivered:
        parts.append("to the Sheriff " + ", ".join(f"{good_name(g)} {n}" for g, n in by_kind(unpack.delivered)))
    if unpack.face_up:
        parts.append("face up " + ", ".join(f"{good_name(g)} {n}" for g, n in by_kind(unpack.face_up)))
    down = bag_size - len(unpack.delivered) - len(unpack.face_up)
    if down > 0:
        parts.append(f"{plural(down, 'card')} face down")
    return "; ".join(parts) or "nothing"

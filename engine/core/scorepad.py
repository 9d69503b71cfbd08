"""What every game's score pad shares: names typed by people, counted nouns, one name per player.

A score pad is filled in by hand at a physical table, so a card may be written as its id
(`age1_lumber_yard`), its display name ("Lumber Yard") or either in any case and spacing; a
miss names the closest known names ("did you mean ...?").
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .errors import InvalidOption


def plural(n: int, noun: str, many: str | None = None) -> str:
    """"1 player", "3 players" ("1 copy", "2 copies" with many="copies")."""
    return f"{n} {noun if n == 1 else (many or noun + 's')}"


def _key(text: str) -> str:
    """How a typed name is compared: case, spaces, dashes and underscores do not matter."""
    return re.sub(r"[\s_\-]+", " ", text).strip().casefold()


class NameBook:
    """Maps what a person may type (ids and display names) to ids.

    `entries` maps each id to its display names; an id always matches itself. A key shared by
    several ids (two Ages' "Loom") maps to all of them, in the order given.
    """

    def __init__(self, entries: Mapping[str, Iterable[str]], what: str, quiet: Iterable[str] = ()) -> None:
        self.what = what
        self.ids: dict[str, list[str]] = {}
        self.shown: dict[str, str] = {}  # key -> how to print it in a suggestion
        quiet = set(quiet)  # ids never suggested (one physical copy among many: noise)
        for ident, names in entries.items():
            for text in (ident, *names):
                key = _key(text)
                bucket = self.ids.setdefault(key, [])
                if ident not in bucket:
                    bucket.append(ident)
                if not (text == ident and ident in quiet):
                    self.shown.setdefault(key, text)

    def candidates(self, text: Any, where: str) -> list[str]:
        """Every id `text` may mean (at least one); InvalidOption with suggestions otherwise."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidOption(f"{where}: a {self.what} must be a {self.what} id string or name, not {text!r}")
        found = self.ids.get(_key(text))
        if found:
            return list(found)
        close = difflib.get_close_matches(_key(text), list(self.shown), n=3, cutoff=0.6)
        hint = f" (did you mean {' or '.join(repr(self.shown[k]) for k in close)}?)" if close else ""
        form = "id" if re.fullmatch(r"[a-z0-9_]+", text) else "name"
        raise InvalidOption(f"{where}: unknown {self.what} {form} {text!r}{hint}")

    def one(self, text: Any, where: str) -> str:
        return self.candidates(text, where)[0]


def counted_items(value: Any, where: str, field: str, what: str = "card") -> list[tuple[str, int]]:
    """A list of names (each once) or an object of name -> count, as (name, count) pairs."""
    if isinstance(value, list):
        return [(item, 1) for item in value]
    if isinstance(value, dict):
        out = []
        for item, count in value.items():
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise InvalidOption(f"{where}: the count of {item!r} must be a whole number of 0 or more,"
                                    f" not {count!r}")
            out.append((item, count))
        return out
    raise InvalidOption(f"{where}: {field} must be a list of {what} ids or an object of {what} -> count")


def check_names(names: Sequence[str]) -> None:
    """Refuse two players with the same name (in any case): the table could not tell them apart."""
    seen: dict[str, str] = {}
    for name in names:
        key = _key(name)
        if key in seen:
            raise InvalidOption(f"two players are named {name!r} (a name appears twice): give each player a different name")
        seen[key] = name


def check_player_count(n: int, low: int, high: int, game: str) -> None:
    if not low <= n <= high:
        raise InvalidOption(f"{game} is for {low}-{high} players, not {plural(n, 'player')}")

"""Text laid out at the width it is drawn at, never cut inside a word.

A panel at 80x24 is ~53 columns wide, at 120x40 much wider: a line of cards that fits the one
overflows the other. These renderables are given to a Static (or a Panel) instead of a Text and
lay their items out when Rich draws them, at the panel's real width:

    Flow   items left to right, a line break only between two items (the next line indented)
    Fit    one line: a head, then the items that fit, then "N more" for the rest
    Lines  a column of Text, Flow, Fit and Forms lines, each laid out at the width
    Forms  one line in several forms, longest first: the first that fits is drawn

They compare by value, so a Panel skips an update that shows the same thing again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text


def _cells(text: Text | str) -> int:
    return text.cell_len if isinstance(text, Text) else len(text)


@dataclass(frozen=True, eq=True)
class Flow:
    """Items separated by `sep`, wrapped between items only; later lines start with `indent`."""

    items: tuple[Text, ...]
    sep: str = " · "
    head: Text = field(default_factory=Text)
    indent: int = 2

    def lines(self, width: int) -> list[Text]:
        lines: list[Text] = []
        line = self.head.copy()
        fresh = True  # nothing after the head (or the indent) yet
        for item in self.items:
            joined = _cells(line) + (0 if fresh else len(self.sep)) + _cells(item)
            if not fresh and joined > width:
                lines.append(line)
                line, fresh = Text(" " * self.indent), True
            if not fresh:
                line.append(self.sep)
            line.append_text(item)
            fresh = False
        lines.append(line)
        return lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text("\n").join(self.lines(options.max_width))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((_cells(i) for i in self.items), default=0) + self.indent
        return Measurement(min(widest, options.max_width), options.max_width)


@dataclass(frozen=True, eq=True)
class Fit:
    """One line: the head, the items that fit the width, and ", 2 more" when some do not."""

    head: Text
    items: tuple[Text, ...]
    sep: str = ", "

    def line(self, width: int) -> Text:
        line = self.head.copy()
        for index, item in enumerate(self.items):
            sep = self.sep if index else ""
            rest = len(self.items) - index - 1
            more = f"{self.sep}{rest} more" if rest else ""
            if _cells(line) + len(sep) + _cells(item) + len(more) > width:
                line.append(f"{sep}{len(self.items) - index} more", style="dim")
                break
            line.append(sep)
            line.append_text(item)
        return line

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.line(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        width = self.line(options.max_width).cell_len
        return Measurement(width, width)


@dataclass(frozen=True, eq=True)
class Forms:
    """One line said in several ways, longest first: the first that fits the width is drawn, so a
    wide terminal shows the long form. The last form is drawn when none fits (make it a Fit)."""

    forms: tuple[Text | Fit, ...]

    @property
    def head(self) -> Text:  # what a list shows before it knows its width (as a Fit does)
        last = self.forms[-1]
        return last.head if isinstance(last, Fit) else last

    def line(self, width: int) -> Text:
        for form in self.forms[:-1]:
            text = form.line(width) if isinstance(form, Fit) else form
            if text.cell_len <= width:
                return text
        last = self.forms[-1]
        return last.line(width) if isinstance(last, Fit) else last

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.line(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        width = self.line(options.max_width).cell_len
        return Measurement(width, width)


@dataclass(frozen=True, eq=True)
class Lines:
    """A column of lines; Flow, Fit and Forms lines are laid out at the width they are drawn at."""

    lines: tuple[Text | Flow | Fit | Forms, ...]

    def render(self, width: int) -> Text:
        out: list[Text] = []
        for line in self.lines:
            if isinstance(line, Flow):
                out += line.lines(width)
            elif isinstance(line, (Fit, Forms)):
                out.append(line.line(width))
            else:
                out.append(line)
        return Text("\n").join(out)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.render(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        width = max((line.cell_len for line in self.render(options.max_width).split()), default=0)
        return Measurement(width, width)


def flow(items: Sequence[Text], sep: str = " · ", head: Text | None = None, indent: int = 2) -> Flow:
    return Flow(tuple(items), sep, head if head is not None else Text(), indent)


SEPARATORS = (" · ", " → ", "; ", ", ")
"""From the coarsest to the finest: where `fit_line` may end a line that does not fit."""


def fit_line(text: Text | Forms, seps: Sequence[str] = SEPARATORS) -> Text | Forms:
    """A line shown whole when it fits, else cut only between its parts ("…, 2 more"): split at
    the coarsest separator it holds. A line with none of them (or already in Forms) is kept."""
    if isinstance(text, Forms):
        return text
    sep = next((s for s in seps if s in text.plain), None)
    if sep is None:
        return text
    return Forms((text, Fit(Text(), tuple(text.split(sep, allow_blank=True)), sep)))

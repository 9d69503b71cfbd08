"""Every string inside plain data: what the view-leak checks search for hidden card ids."""

from __future__ import annotations


def strings_in(data) -> set[str]:
    """All strings in nested maps (keys and values), lists and tuples."""
    out: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(item.keys())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return out

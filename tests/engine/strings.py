"""Every string inside plain data: what the view-leak checks search for hidden card ids
(the one helper lives in engine/core/plain.py; the dealer's leak check uses it too)."""

from engine.core.plain import strings_in

__all__ = ["strings_in"]

"""Doors into a relay: ways in for a friend who has only an ssh client or a browser.

A door starts one gamenight TUI process per visitor (`env.py` says what it tells that
process); the visitors of one door see each other's tables (`tables.py`).
"""

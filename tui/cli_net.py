"""Network subcommands of the `gamenight` CLI (host, join, watch, relay, bot); see net/."""

from __future__ import annotations

import argparse


def add_net_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register the network subcommands; filled in by the network layer."""

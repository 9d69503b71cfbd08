"""The defaults ship inside the package; configs/default.toml is their readable copy."""

from __future__ import annotations

from pathlib import Path

from tui.config import DEFAULT_FILE

ROOT = Path(__file__).resolve().parents[2]


def test_the_packaged_defaults_are_inside_the_package() -> None:
    assert DEFAULT_FILE.parent == ROOT / "tui" and DEFAULT_FILE.is_file()


def test_configs_default_toml_equals_the_packaged_defaults() -> None:
    readable = (ROOT / "configs" / "default.toml").read_bytes()
    assert readable == DEFAULT_FILE.read_bytes(), "edit both: configs/default.toml and tui/default.toml"

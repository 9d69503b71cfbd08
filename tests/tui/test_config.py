"""Settings: defaults file = built-in defaults; the user's file and env override; typos fail."""

from __future__ import annotations

import tomllib
from dataclasses import asdict

import pytest

from tui.config import DEFAULT_FILE, Config, ConfigError, load_config, user_config_path


def test_the_shipped_defaults_file_matches_the_built_in_defaults(tmp_path):
    with open(DEFAULT_FILE, "rb") as fh:
        shipped = tomllib.load(fh)
    assert shipped == asdict(Config())
    assert load_config(user_file=tmp_path / "none.toml", env={}) == Config()


def test_user_file_and_environment_override(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[player]\nname = "Ann"\n[ui]\nbot_delay = 0\nbell = false\n', encoding="utf-8")
    config = load_config(user_file=path, env={"GAMENIGHT_BROKER_USERNAME": "ann", "GAMENIGHT_BROKER_PASSWORD": "s3cret"})
    assert config.player.name == "Ann"
    assert config.ui.bot_delay == 0.0 and config.ui.bell is False
    assert (config.broker.username, config.broker.password) == ("ann", "s3cret")
    assert config.broker.port == 1883


def test_the_user_file_lives_in_the_config_dir(gamenight_home):
    path = user_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[player]\nname = "Zoe"\n', encoding="utf-8")
    assert load_config(env={}).player.name == "Zoe"


@pytest.mark.parametrize(
    "text, words",
    [
        ('[player]\nnmae = "Ann"\n', ["unknown key player.nmae"]),
        ('[colours]\nfg = "red"\n', ["unknown section [colours]"]),
        ("[broker]\nport = 70000\n", ["broker.port", "1 to 65535"]),
        ('[broker]\nport = "1883"\n', ["broker.port"]),
        ('[broker]\nurl = "localhost"\n', ["broker.url", "mqtt://"]),
        ('[ui]\ntheme = "neon"\n', ["ui.theme", "textual-dark"]),
        ('[ui]\nbell = "yes"\n', ["ui.bell", "true or false"]),
        ("[ui]\nbot_delay = -1\n", ["ui.bot_delay"]),
        ("[ui\n", ["not valid TOML"]),
    ],
)
def test_bad_settings_are_one_clear_error(tmp_path, text, words):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(user_file=path, env={})
    message = str(info.value)
    assert str(path) in message and "\n" not in message
    for word in words:
        assert word in message


def test_a_bad_environment_value_names_the_variable(tmp_path):
    with pytest.raises(ConfigError, match=r"\$GAMENIGHT_BROKER_USERNAME"):
        load_config(user_file=tmp_path / "none.toml", env={"GAMENIGHT_BROKER_USERNAME": 5})


def test_styles_and_help_ship_with_the_package():
    from importlib.resources import files

    tui = files("tui")
    assert (tui / "styles" / "app.tcss").is_file()
    assert (tui / "styles" / "money.tcss").is_file()
    assert (tui / "help" / "money.md").is_file()

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


# ---- the player's name, written by a door's first visit ---------------------------------
def test_saving_the_name_keeps_every_other_key_and_comment(tmp_path):
    from tui.config import save_player_name, saved_player_name

    path = tmp_path / "config.toml"
    text = ('# my settings\n[ui]\ntheme = "nord"  # the dark one\nbot_delay = 0\n\n'
            '[player]\nname = "Old"\n\n[broker]\nport = 1884\n')
    path.write_text(text, encoding="utf-8")
    path.chmod(0o640)
    save_player_name('Zoë "Z" \\o/', path)
    assert path.read_text(encoding="utf-8") == text.replace('name = "Old"', 'name = "Zoë \\"Z\\" \\\\o/"')
    assert path.stat().st_mode & 0o777 == 0o640
    assert saved_player_name(path) == 'Zoë "Z" \\o/'
    config = load_config(user_file=path, env={})
    assert (config.player.name, config.ui.theme, config.broker.port) == ('Zoë "Z" \\o/', "nord", 1884)


def test_saving_the_name_adds_it_to_player_or_adds_the_section(tmp_path):
    from tui.config import save_player_name, saved_player_name

    new = tmp_path / "config" / "config.toml"  # no folder yet: a door's first visit
    assert saved_player_name(new) is None
    save_player_name("Ann", new)
    assert new.read_text(encoding="utf-8") == '[player]\nname = "Ann"\n'
    assert new.stat().st_mode & 0o077 == 0  # a new file may later hold a broker password
    other = tmp_path / "other.toml"
    other.write_text('[player]\n# who am I\n[ui]\nbell = false\n', encoding="utf-8")
    save_player_name("Bo", other)
    assert other.read_text(encoding="utf-8") == '[player]\nname = "Bo"\n# who am I\n[ui]\nbell = false\n'
    assert load_config(user_file=other, env={}).ui.bell is False


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "bell\x07", "esc\x1b[2J"])
def test_a_name_that_is_none_is_refused_and_nothing_is_written(tmp_path, name):
    from tui.config import save_player_name

    path = tmp_path / "config.toml"
    with pytest.raises(ValueError, match="player.name"):
        save_player_name(name, path)
    assert not path.exists()


@pytest.mark.parametrize("text", ["[ui\n", 'player = "flat"\n', 'player.name = "dotted"\n'])
def test_a_file_it_cannot_change_safely_is_left_as_it_was(tmp_path, text):
    from tui.config import save_player_name

    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        save_player_name("Ann", path)
    assert "\n" not in str(info.value)
    assert path.read_text(encoding="utf-8") == text


def test_behind_a_door_the_broker_is_the_relays(tmp_path, monkeypatch):
    from tui.config import broker_settings

    door = {"GAMENIGHT_DOOR": str(tmp_path), "GAMENIGHT_DOOR_BROKER": "mqtt://127.0.0.1:18830"}
    config = load_config(user_file=tmp_path / "none.toml", env=door)
    assert config.broker.url == "mqtt://127.0.0.1:18830"  # Join's default, a bare game id's broker
    assert broker_settings(config, "embedded").broker == "embedded"  # not behind a door (this process)
    for name, value in door.items():
        monkeypatch.setenv(name, value)
    assert broker_settings(config, "embedded").broker == "mqtt://127.0.0.1:18830"  # no broker of its own
    assert broker_settings(config, "mqtt://10.0.0.1:1883").broker == "mqtt://10.0.0.1:1883"
    assert load_config(user_file=tmp_path / "none.toml", env={}).broker.url == "mqtt://127.0.0.1:1883"


def test_a_door_visitors_app_logs_in_to_the_relays_broker_as_the_relay_does(tmp_path):
    """The relay's login and certificate pin reach the visitor's app (over what its own file
    says), and nothing else of the relay's own GAMENIGHT_ variables does."""
    from net.doors.env import Door, broker_access, child_environ

    pin = "ab" * 32
    door = Door(tmp_path / "door", "mqtts://127.0.0.1:18830", "ssh",
                broker_access(username="friends", password="swordfish", fingerprint=pin))
    relay_env = {"PATH": "/usr/bin", "GAMENIGHT_HOME": "/srv/relay", "GAMENIGHT_BROKER_PASSWORD": "the relay's",
                 "GAMENIGHT_BROKER_CA": "/srv/relay/ca.pem"}
    home = tmp_path / "visitor"
    env = child_environ(relay_env, door, home)
    assert env["GAMENIGHT_HOME"] == str(home) and "GAMENIGHT_BROKER_CA" not in env
    own = tmp_path / "own.toml"
    own.write_text('[broker]\nusername = "ann"\npassword = "guess"\n', encoding="utf-8")
    broker = load_config(user_file=own, env=env).broker
    assert (broker.url, broker.username, broker.password, broker.fingerprint) == (
        "mqtts://127.0.0.1:18830", "friends", "swordfish", pin)
    plain = child_environ(relay_env, Door(tmp_path / "door", "mqtt://127.0.0.1:18830", "ssh"), home)
    assert not any(name.startswith("GAMENIGHT_BROKER_") for name in plain)

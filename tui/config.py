"""Settings: configs/default.toml, then the user's config.toml, then the environment.

Every key is known and typed here; an unknown key or a value of the wrong kind is a
ConfigError with one line naming the file and the key, so a typo never passes silently.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from net.codec import MAX_NAME
from net.doors.env import current as current_door
from net.paths import atomic_write, config_dir

# Shipped inside the package (a wheel has no configs/); configs/default.toml is the readable
# copy next to mosquitto.conf, kept equal by tests/tui/test_config_files.py.
DEFAULT_FILE = Path(__file__).resolve().parent / "default.toml"
USER_FILE_NAME = "config.toml"
ENV_OVERRIDES = {
    "GAMENIGHT_BROKER_USERNAME": ("broker", "username"),
    "GAMENIGHT_BROKER_PASSWORD": ("broker", "password"),
    "GAMENIGHT_BROKER_CA": ("broker", "ca_file"),
    "GAMENIGHT_BROKER_FINGERPRINT": ("broker", "fingerprint"),
}


class ConfigError(Exception):
    """A settings file or variable that cannot be used; the message is one line."""


@dataclass(frozen=True)
class PlayerConfig:
    name: str = "Player"


@dataclass(frozen=True)
class BrokerConfig:
    url: str = "mqtt://127.0.0.1:1883"
    bind: str = "127.0.0.1"
    port: int = 1883
    username: str = ""
    password: str = ""
    ca_file: str = ""
    fingerprint: str = ""
    tls: bool = False
    cert_file: str = ""
    key_file: str = ""


@dataclass(frozen=True)
class UiConfig:
    theme: str = "textual-dark"
    bell: bool = True
    title: bool = True  # the terminal's title says "▶ Your turn" (tui/title.py)
    bot_delay: float = 0.6


@dataclass(frozen=True)
class Config:
    player: PlayerConfig = PlayerConfig()
    broker: BrokerConfig = BrokerConfig()
    ui: UiConfig = UiConfig()


SECTIONS: dict[str, type] = {"player": PlayerConfig, "broker": BrokerConfig, "ui": UiConfig}


def _name(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME or not value.isprintable():
        return f"must be a name of 1 to {MAX_NAME} printable characters"
    return None


def _url(value: Any) -> str | None:
    if not isinstance(value, str):
        return "must be a text like mqtt://host:1883"
    parsed = urlparse(value)
    if parsed.scheme not in ("mqtt", "mqtts", "tcp", "ws", "wss") or not parsed.hostname:
        return "must look like mqtt://host:1883"
    try:
        parsed.port  # noqa: B018 - raises ValueError for a port out of range
    except ValueError:
        return "has a port out of range"
    return None


def _text(value: Any) -> str | None:
    return None if isinstance(value, str) else "must be a text in quotes"


def _ca_file(value: Any) -> str | None:
    if not isinstance(value, str):
        return "must be a text in quotes (the path of a PEM file)"
    if value and not Path(value).expanduser().is_file():
        return "names no file (a PEM file with the CA that signed the broker's certificate)"
    return None


def _pem_file(value: Any) -> str | None:
    if not isinstance(value, str):
        return "must be a text in quotes (the path of a PEM file)"
    if value and not Path(value).expanduser().is_file():
        return "names no file"
    return None


def _fingerprint(value: Any) -> str | None:
    from net.mqtt import normal_pin

    if not isinstance(value, str):
        return "must be a text in quotes (64 hex digits)"
    try:
        value and normal_pin(value)
    except ValueError:
        return "must be the certificate's SHA-256: 64 hex digits"
    return None


def _port(value: Any) -> str | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 65535
    return None if ok else "must be a port number from 1 to 65535"


def _bool(value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


def _delay(value: Any) -> str | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 10
    return None if ok else "must be a number of seconds from 0 to 10"


def _theme(value: Any) -> str | None:
    from .themes import theme_names

    if value in theme_names():
        return None
    return f"must be one of {', '.join(sorted(theme_names()))}"


CHECKS: dict[tuple[str, str], Callable[[Any], str | None]] = {
    ("player", "name"): _name,
    ("broker", "url"): _url,
    ("broker", "bind"): _text,
    ("broker", "port"): _port,
    ("broker", "username"): _text,
    ("broker", "password"): _text,
    ("broker", "ca_file"): _ca_file,
    ("broker", "fingerprint"): _fingerprint,
    ("broker", "tls"): _bool,
    ("broker", "cert_file"): _pem_file,
    ("broker", "key_file"): _pem_file,
    ("ui", "theme"): _theme,
    ("ui", "bell"): _bool,
    ("ui", "title"): _bool,
    ("ui", "bot_delay"): _delay,
}


def user_config_path() -> Path:
    return config_dir() / USER_FILE_NAME


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it ({exc.strerror or exc})") from None


def _merge(into: dict[str, dict[str, Any]], data: Mapping[str, Any], origin: str) -> None:
    for section, values in data.items():
        if section not in SECTIONS:
            raise ConfigError(f"{origin}: unknown section [{section}] (sections: {', '.join(SECTIONS)})")
        if not isinstance(values, Mapping):
            raise ConfigError(f"{origin}: {section} must be a [{section}] table")
        known = [f.name for f in fields(SECTIONS[section])]
        for key, value in values.items():
            if key not in known:
                raise ConfigError(f"{origin}: unknown key {section}.{key} (keys: {', '.join(known)})")
            problem = CHECKS[(section, key)](value)
            if problem:
                raise ConfigError(f"{origin}: {section}.{key} {problem}, not {value!r}")
            into[section][key] = value


def load_config(
    user_file: Path | None = None,
    env: Mapping[str, str] | None = None,
    default_file: Path = DEFAULT_FILE,
) -> Config:
    """Defaults, then the user's file (if any), then the environment; raises ConfigError."""
    merged: dict[str, dict[str, Any]] = {name: {} for name in SECTIONS}
    if default_file.is_file():  # absent in a wheel install: the dataclass defaults are the same
        _merge(merged, _read_toml(default_file), str(default_file))
    path = user_config_path() if user_file is None else user_file
    _merge(merged, _read_toml(path), str(path))
    environ = os.environ if env is None else env
    for variable, (section, key) in ENV_OVERRIDES.items():
        if variable in environ:
            _merge(merged, {section: {key: environ[variable]}}, f"${variable}")
    door = current_door(environ)
    if door is not None:  # behind a door every table goes through the relay's broker
        _merge(merged, {"broker": {"url": door.broker}}, "$GAMENIGHT_DOOR_BROKER")
    for key in ("ca_file", "cert_file", "key_file"):
        if merged["broker"].get(key):
            merged["broker"][key] = str(Path(merged["broker"][key]).expanduser())
    if (merged["broker"].get("cert_file") or "") and not merged["broker"].get("key_file"):
        raise ConfigError("broker.cert_file is set but broker.key_file is not: TLS needs both")
    ui = dict(merged["ui"])
    if "bot_delay" in ui:
        ui["bot_delay"] = float(ui["bot_delay"])
    return Config(
        player=PlayerConfig(**merged["player"]),
        broker=BrokerConfig(**merged["broker"]),
        ui=UiConfig(**ui),
    )


def broker_settings(config: Config, broker: str, **overrides: Any) -> Any:
    """A net.launch.BrokerSettings for `broker` with this config's bind, port, login and CA."""
    from net.launch import BrokerSettings

    b = config.broker
    door = current_door()
    if broker == "embedded" and door is not None:  # a door's visitor starts no broker: the relay's
        broker = door.broker
    values: dict[str, Any] = dict(broker=broker, bind=b.bind, port=b.port, username=b.username,
                                  password=b.password, ca_file=b.ca_file, fingerprint=b.fingerprint,
                                  tls=b.tls, cert_file=b.cert_file, key_file=b.key_file)
    return BrokerSettings(**{**values, **overrides})


# ---- the one key gamenight writes: the player's name (a door's first visit asks it) ----------
_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]\s*(#.*)?$")


def saved_player_name(path: Path | None = None) -> str | None:
    """The name the user's own config.toml gives (None: none yet, or a file that does not read)."""
    try:
        data = _read_toml(user_config_path() if path is None else path)
    except ConfigError:
        return None
    player = data.get("player")
    name = player.get("name") if isinstance(player, dict) else None
    return name if _name(name) is None else None


def save_player_name(name: str, path: Path | None = None) -> None:
    """Set [player] name in the user's config.toml (see save_setting); ValueError for a name
    that is not one (blank, too long, a control character)."""
    save_setting("player", "name", name, path)


def save_setting(section: str, key: str, value: str, path: Path | None = None) -> None:
    """Set `[section] key` in the user's config.toml, keeping every other key, comment and line.

    The file is changed as text, read back, and written (atomically) only if it then holds
    exactly what it held plus the setting; otherwise ConfigError, and the file stays as it was.
    ValueError for a value the setting's check refuses.
    """
    path = user_config_path() if path is None else path
    problem = CHECKS[(section, key)](value)
    if problem:
        raise ValueError(f"{section}.{key} {problem}, not {value!r}")
    before = _read_toml(path)  # ConfigError for a file that does not read: never overwritten
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read it ({exc})") from None
    table = before.get(section, {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {section} must be a [{section}] table")
    changed = _with_setting(text, section, key, value)
    expected = {**before, section: {**table, key: value}}
    try:
        after = tomllib.loads(changed)
    except tomllib.TOMLDecodeError:
        after = None
    if after != expected:
        raise ConfigError(f"{path}: cannot set {section}.{key} in it safely; set it by hand")
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o600  # it may hold a broker password
    atomic_write(path, changed.encode("utf-8"), mode=mode)


def _with_setting(text: str, section: str, key: str, value: str) -> str:
    """`text` with its [section] `key` line replaced, or added to [section], or [section] added."""
    line = f"{key} = {json.dumps(value, ensure_ascii=False)}"  # a JSON string is a TOML basic string
    key_line = re.compile(rf"^\s*{re.escape(key)}\s*=")
    lines = text.splitlines()
    current, section_at = None, None
    for index, raw in enumerate(lines):
        header = _HEADER.match(raw)
        if header or raw.lstrip().startswith("["):
            current = header.group(1) if header else None
            if current == section:
                section_at = index
        elif current == section and key_line.match(raw):
            lines[index] = line
            return "\n".join(lines) + "\n"
    if section_at is not None:
        lines.insert(section_at + 1, line)
    else:
        lines += ([""] if lines and lines[-1].strip() else []) + [f"[{section}]", line]
    return "\n".join(lines) + "\n"

"""Settings: configs/default.toml, then the user's config.toml, then the environment.

Every key is known and typed here; an unknown key or a value of the wrong kind is a
ConfigError with one line naming the file and the key, so a typo never passes silently.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from net.codec import MAX_NAME
from net.paths import config_dir

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
    bot_delay: float = 0.6


@dataclass(frozen=True)
class Config:
    player: PlayerConfig = PlayerConfig()
    broker: BrokerConfig = BrokerConfig()
    ui: UiConfig = UiConfig()


SECTIONS: dict[str, type] = {"player": PlayerConfig, "broker": BrokerConfig, "ui": UiConfig}


def _name(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        return f"must be a name of 1 to {MAX_NAME} characters"
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
    from textual.theme import BUILTIN_THEMES

    if value in BUILTIN_THEMES:
        return None
    return f"must be one of {', '.join(sorted(BUILTIN_THEMES))}"


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
    values: dict[str, Any] = dict(broker=broker, bind=b.bind, port=b.port, username=b.username,
                                  password=b.password, ca_file=b.ca_file, fingerprint=b.fingerprint,
                                  tls=b.tls, cert_file=b.cert_file, key_file=b.key_file)
    return BrokerSettings(**{**values, **overrides})

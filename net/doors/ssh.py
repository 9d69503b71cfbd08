"""The SSH door: `ssh -p 2222 host` and the visitor is at the gamenight menu, known by their key.

One asyncssh server next to the relay. A visitor authenticates with a public key only (no
password, no keyboard-interactive); the key is their identity: `env.key_id` of it names their
data folder, so the same key is the same player next time. Each session with a pty runs its
own TUI process (`PtyChild`) of the session's size; a session without one (`ssh host cmd`,
`ssh -T`) is refused. Every refusal is one line to the visitor (the disconnect reason, the
auth banner, or the session's stderr) and one line in the log; the limits are in
`limits.DoorLimits`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from .env import Door, child_environ, key_id
from .limits import AddressBuckets, DoorLimits, SessionCaps
from .pty_child import PtyChild
from .ssh_keys import AuthorizedKeys, fingerprint, load_or_create_host_key

log = logging.getLogger("gamenight.net")

# Turn off what a program before us may have left on in the visitor's terminal: mouse
# reporting (every mode), focus events, bracketed paste, the kitty keyboard protocol, the
# alternate screen; show the cursor, plain colours, then a clear screen.
RESET_TERMINAL = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1005l\x1b[?1006l\x1b[?1015l\x1b[?1016l"
    b"\x1b[?1004l\x1b[?2004l\x1b[<u\x1b[?1049l\x1b[?25h\x1b[0m"
)
CLEAR_SCREEN = b"\x1b[H\x1b[2J"
CTRL_C, CTRL_Q = b"\x03", b"\x11"  # Ctrl+C ends the session; the app is asked to quit with Ctrl+Q
QUIT_GRACE = 5.0  # seconds the app has to quit (Ctrl+C, a dropped connection) before it is ended
TERM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
TRUECOLOR = ("truecolor", "24bit")


@dataclass(frozen=True)
class SshDoorOptions:
    """How `gamenight relay --ssh PORT` runs its door."""

    port: int
    command: Sequence[str]  # each visitor's TUI, e.g. [python, -m, tui.cli]
    root: Path  # the door's folder: players/<key id>/, tables/
    host_key: Path
    bind: str = "127.0.0.1"
    authorized_keys: Path | None = None
    open: bool = False  # admit any key
    limits: DoorLimits = field(default_factory=DoorLimits)

    def __post_init__(self) -> None:
        if self.open == (self.authorized_keys is not None):
            raise ValueError("the SSH door needs exactly one of --authorized-keys FILE or --open")


def terminal_env(term: str | None, env: dict[str, str]) -> tuple[str, str | None]:
    """TERM and COLORTERM for the visitor's app, from its pty request and the env it sent:
    Textual (Rich) draws in truecolor for COLORTERM=truecolor/24bit, else 256 colours for
    TERM=*-256color, else 16."""
    term = term if term and TERM_NAME.fullmatch(term) else "xterm-256color"
    colorterm = env.get("COLORTERM", "").strip().lower()
    return term, colorterm if colorterm in TRUECOLOR else None


class SshDoor:
    """The listening door; `start()`, then `stop()` ends every session it runs."""

    def __init__(self, options: SshDoorOptions, broker_url: str, access: tuple[tuple[str, str], ...] = ()) -> None:
        """`access`: what the relay's broker asks of its clients (`env.broker_access`)."""
        self.options = options
        self.limits = options.limits
        self.door = Door(options.root, broker_url, "ssh", access)
        self.keys = AuthorizedKeys(options.authorized_keys) if options.authorized_keys else None
        self.connection_buckets = AddressBuckets(self.limits.connections_per_minute,
                                                 self.limits.connection_burst, "connections")
        self.auth_buckets = AddressBuckets(self.limits.auth_per_minute, self.limits.auth_burst,
                                           "authentication attempts")
        self.caps = SessionCaps(self.limits.sessions_per_key, self.limits.sessions_total)
        self.pending = 0  # connections not (yet) in a session
        self.sessions: set[VisitorSession] = set()
        self.host_key: asyncssh.SSHKey | None = None
        self._server: asyncssh.SSHAcceptor | None = None

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.host_key) if self.host_key else ""

    @property
    def port(self) -> int:
        return self._server.get_port() if self._server else self.options.port

    async def start(self) -> None:
        logging.getLogger("asyncssh").setLevel(logging.WARNING)  # our own line per session and refusal
        self.host_key = load_or_create_host_key(self.options.host_key)
        (self.options.root / "players").mkdir(parents=True, exist_ok=True, mode=0o700)
        self._server = await asyncssh.create_server(
            lambda: DoorConnection(self), self.options.bind, self.options.port,
            server_host_keys=[self.host_key], server_version="gamenight",
            public_key_auth=True, password_auth=False, kbdint_auth=False, host_based_auth=False,
            gss_host=None, allow_pty=True, line_editor=False, encoding=None,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False,
            login_timeout=self.limits.login_seconds, keepalive_interval=30, keepalive_count_max=3)
        log.info("ssh door: on %s:%d, host key %s, %s", self.options.bind, self.port, self.fingerprint,
                 "any key (--open)" if self.options.open else f"keys in {self.options.authorized_keys}")

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        await asyncio.gather(*(s.close(self.refuse(s.connection.address, s.shown_key, "the door is closing"))
                               for s in list(self.sessions)), return_exceptions=True)

    def admits(self, key: asyncssh.SSHKey, address: str) -> bool:
        return self.options.open or (self.keys is not None and self.keys.admits(key, address, address))

    def refuse(self, address: str, key: str, reason: str) -> str:
        """The one line a refused visitor is told; the same line goes to the log."""
        log.info("ssh door: refused %s%s: %s", address, f" (key {key})" if key else "", reason)
        return f"gamenight: {reason}"


class DoorConnection(asyncssh.SSHServer):
    """One visitor's SSH connection: the rate limits, the key check, at most one session."""

    def __init__(self, door: SshDoor) -> None:
        self.door = door
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.key: asyncssh.SSHKey | None = None  # the key of the last accepted offer
        self.banner_sent = False
        self.offered: set[bytes] = set()  # keys offered on this connection (bounded by the bucket)
        self.refusal: str | None = None  # the line a refused connection is told at auth
        self.counted = False  # in door.pending
        self.session: VisitorSession | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?",)
        self.address = str(peer[0])
        door = self.door
        if door.pending >= 2 * door.limits.pending_connections:
            conn.abort()  # a flood: not even a key exchange, nor a line
            log.info("ssh door: dropped a connection from %s: %d connections logging in", self.address, door.pending)
            return
        self.refusal = door.connection_buckets.take(self.address, time.monotonic())
        if self.refusal is None and door.pending >= door.limits.pending_connections:
            self.refusal = "the door is busy (too many connections logging in); try again in a minute"
        door.pending += 1
        self.counted = True

    def begin_auth(self, username: str) -> bool:
        """Every visitor authenticates (by key). A refused connection is told why here: the
        first moment the client shows what the server says (the disconnect reason)."""
        if self.refusal is not None and self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, self.door.refuse(self.address, "", self.refusal))
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self._uncount()
        if self.session is not None:
            self.session.hang_up()

    def _uncount(self) -> None:
        if self.counted:
            self.counted = False
            self.door.pending -= 1

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        assert self.conn is not None
        door = self.door
        first_offer = key.public_data not in self.offered  # a client asks, then signs: one attempt
        self.offered.add(key.public_data)
        reason = door.auth_buckets.take(self.address, time.monotonic()) if first_offer else None
        if reason is not None:
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                 door.refuse(self.address, fingerprint(key), reason))
            return False
        if not door.admits(key, self.address):
            if not self.banner_sent:
                self.banner_sent = True
                line = door.refuse(self.address, fingerprint(key),
                                   f"key {fingerprint(key)} is not on this door's list (ask the host to add it)")
                self.conn.send_auth_banner(line + "\r\n")
            return False
        self.key = key  # the offer is checked (signature) right after this returns
        return True

    def session_requested(self) -> VisitorSession | bool:
        if self.session is not None or self.key is None:
            return False  # one session a connection: each costs a process
        self._uncount()
        self.session = VisitorSession(self.door, self, key_id(self.key.public_data), fingerprint(self.key))
        return self.session


class VisitorSession(asyncssh.SSHServerSession):
    """One visitor's terminal: refused with one line, or their own TUI on a pty of their size."""

    def __init__(self, door: SshDoor, connection: DoorConnection, key: str, shown_key: str) -> None:
        self.door, self.connection, self.key, self.shown_key = door, connection, key, shown_key
        self.chan: asyncssh.SSHServerChannel | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.command: str | None = None
        self.child: PtyChild | None = None
        self.admitted = False
        self.ready = False  # the app has drawn: input goes to it from now on
        self.gone = False  # the visitor's connection is closed: nothing more to write
        self.last_input = time.monotonic()
        self._timers: list[asyncio.TimerHandle] = []
        self._ending: asyncio.Task | None = None

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes) -> bool:
        self.term, self.size = term_type, (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command  # refused with a line once the session starts
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self.door.refuse(self.connection.address, self.shown_key, f"subsystem {subsystem!r} is not offered")
        return False

    def session_started(self) -> None:
        reason = None
        if self.command is not None or self.term is None:
            reason = "a terminal is needed: connect with `ssh -t` and no command"
        else:
            reason = self.door.caps.admit(self.key)
            self.admitted = reason is None
        if reason is not None:
            self._refuse(self.door.refuse(self.connection.address, self.shown_key, reason))
            return
        self.door.sessions.add(self)
        self._write(RESET_TERMINAL + CLEAR_SCREEN)
        asyncio.get_running_loop().create_task(self._start_child())

    def _refuse(self, line: str) -> None:
        assert self.chan is not None
        self.chan.write_stderr((line + "\r\n").encode())
        self.chan.exit(1)

    async def _start_child(self) -> None:
        assert self.chan is not None
        door = self.door
        home = door.door.player_home(self.key)
        home.mkdir(parents=True, exist_ok=True, mode=0o700)
        term, colorterm = terminal_env(self.term, dict(self.chan.get_environment()))
        env = child_environ(os.environ, door.door, home, term=term, colorterm=colorterm)
        self.child = PtyChild(door.options.command, env, home, *self.size,
                              on_output=self._output, on_exit=self._child_exited)
        try:
            await self.child.start()
        except OSError as exc:
            log.error("ssh door: cannot start the app for %s: %s", self.shown_key, exc)
            self.close("gamenight: the door could not start the game (details in the relay's log)")
            return
        log.info("ssh door: session for %s from %s (pid %s, %dx%d, TERM=%s%s)", self.shown_key,
                 self.connection.address, self.child.pid, *self.child.size, term,
                 f", COLORTERM={colorterm}" if colorterm else "")
        loop = asyncio.get_running_loop()
        self._timers.append(loop.call_later(door.limits.session_seconds, self._too_long))
        self._timers.append(loop.call_later(door.limits.idle_seconds, self._check_idle))

    # ---- bytes both ways ---------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        if self.chan is not None and not self.gone:
            try:
                self.chan.write(data)
            except OSError:  # the channel closed under us: the visitor left
                self.gone = True

    def _output(self, data: bytes) -> None:
        self.ready = True
        self._write(data)

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.last_input = time.monotonic()
        if self.child is None or not self.ready:
            return  # typed (or a stale terminal's reports) before the app is up: dropped
        if CTRL_C in data:  # the app is asked to quit, as with Ctrl+Q, and the session ends
            self.close("")
            return
        self.child.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width, height)
        if self.child is not None:
            self.child.resize(width, height)

    def signal_received(self, signal: str) -> None:
        if signal == "INT" and self.child is not None:
            self.data_received(CTRL_C, None)

    def pause_writing(self) -> None:
        if self.child is not None:
            self.child.pause_output()

    def resume_writing(self) -> None:
        if self.child is not None:
            self.child.resume_output()

    def eof_received(self) -> bool:
        self.hang_up()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.hang_up()

    # ---- the end -------------------------------------------------------------------------
    def _check_idle(self) -> None:
        idle = self.door.limits.idle_seconds
        left = self.last_input + idle - time.monotonic()
        if left > 0:
            self._timers.append(asyncio.get_running_loop().call_later(left, self._check_idle))
            return
        self.close(self.door.refuse(self.connection.address, self.shown_key,
                                    f"no key pressed for {_duration(idle)}: session closed "
                                    "(Continue in the menu picks your game up)"))

    def _too_long(self) -> None:
        self.close(self.door.refuse(self.connection.address, self.shown_key,
                                    f"sessions last at most {_duration(self.door.limits.session_seconds)}: "
                                    "closed (Continue in the menu picks your game up)"))

    def _child_exited(self, status: int) -> None:
        self.close("", status)

    def hang_up(self) -> None:
        """The visitor is gone: end the app (its seat stays: the next visit resumes it)."""
        self.gone = True
        self.close(None)

    def close(self, line: str | None, status: int = 0) -> asyncio.Task:
        """End the session once: stop the app, restore the visitor's terminal, tell them
        `line` ("" nothing; None: nobody is there to tell)."""
        if self._ending is None:
            self._ending = asyncio.get_running_loop().create_task(self._end(line, status))
        return self._ending

    async def _end(self, line: str | None, status: int) -> None:
        for timer in self._timers:
            timer.cancel()
        if self.child is not None:
            await self.child.stop(quit_key=CTRL_Q, quit_grace=QUIT_GRACE)
            assert self.child.process is not None
            log.info("ssh door: session for %s ended (app pid %s %s)", self.shown_key, self.child.pid,
                     _how_it_ended(self.child.process.returncode))
        if self.admitted:
            self.admitted = False
            self.door.caps.release(self.key)
        self.door.sessions.discard(self)
        if line is not None and self.chan is not None and not self.gone:
            self._write(RESET_TERMINAL + (f"\r\n{line}\r\n".encode() if line else b""))
            self.gone = True
            self.chan.exit(status if 0 <= status < 256 else 1)


def _how_it_ended(status: int | None) -> str:
    if status is not None and status < 0:
        return f"ended by signal {-status}"
    return f"exited with status {status}"


def _duration(seconds: float) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        hours = int(seconds // 3600)
        return f"{hours} hour{'s' if hours > 1 else ''}"
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return f"{minutes} minute{'s' if minutes > 1 else ''}"
    return f"{seconds:g} s"

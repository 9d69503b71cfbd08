"""paho-mqtt's client driven by the asyncio event loop, through paho's public API only.

paho documents this use ("external event loop"): the application watches the socket paho
hands it (`on_socket_open`/`on_socket_close`, `on_socket_register_write`/`..._unregister_write`)
and calls `loop_read`, `loop_write` and `loop_misc` itself. aiomqtt is built the same way but
queues every message for an iterator and waits a loop iteration before writing; this client
takes two shortcuts on the per-packet path, which a commit-reveal step among three peers
crosses two dozen times (every QoS 1 delivery costs a PUBACK):

- inbound: a message goes straight to `on_message` (the transport's topic dispatch) from the
  read callback, with no queue, task or future per message;
- outbound: a packet queued outside paho's own code (a publish from a coroutine or timer) is
  written at once; one queued while paho reads (a PUBACK, a handler's publish) is written as
  soon as that read returns, without waking the loop for a writer.
A mosquitto round trip here: 0.17-0.18 ms this way, 0.42-0.63 ms through aiomqtt's client in
the same runs (bench/net_latency.py prints both).

Only paho's documented names are used; tests/net/test_library_api.py fails on any other.
Errors are aiomqtt's public exception types, so the transport reads both clients alike.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import socket
import ssl
import threading
from collections.abc import Callable, Iterable
from typing import Any

import paho.mqtt.client as mqtt
from aiomqtt import MqttCodeError, MqttError
from paho.mqtt.enums import CallbackAPIVersion

from .transport import Will

TIMEOUT = 10.0  # seconds to wait for a CONNACK, SUBACK, UNSUBACK or PUBACK (aiomqtt's default)
MISC_EVERY = 1.0  # seconds between paho's keepalive checks (as aiomqtt does)


class PahoClient:
    """One MQTT 3.1.1 connection: `async with` connects, `serve()` lasts until it ends."""

    direct = True  # messages reach on_message without an iterator

    def __init__(self, host: str, port: int, *, on_message: Callable[[str, bytes, bool], None],
                 identifier: str, keepalive: int, username: str | None = None,
                 password: str | None = None, will: Will | None = None,
                 tls_context: ssl.SSLContext | None = None,
                 socket_options: Iterable[tuple[int, int, int]] = ()) -> None:
        self._host, self._port, self._keepalive = host, port, keepalive
        self._socket_options = list(socket_options)
        self._deliver = on_message
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        # paho calls on_message from the read callback, registered from the connect thread, so
        # in an empty context; handlers get the creator's (e.g. Textual's active app), as a task would
        self._context = contextvars.copy_context()
        self._connected: asyncio.Future[None] = self._loop.create_future()
        self._disconnected: asyncio.Future[None] = self._loop.create_future()
        self._acks: dict[int, asyncio.Future[None]] = {}  # mid -> SUBACK, UNSUBACK or PUBACK
        self._sock: Any = None
        self._inside = False  # paho's own code is running (a read, a write, a keepalive check)
        self._closed = False  # let go of: a socket paho opens after that is closed at once
        self._watching_writes = False  # the loop watches the socket for writability
        self._misc: asyncio.Task[None] | None = None
        self._paho = self._make_paho(identifier, username, password, will, tls_context)

    def _make_paho(self, identifier: str, username: str | None, password: str | None,
                   will: Will | None, tls_context: ssl.SSLContext | None) -> mqtt.Client:
        """paho's client set up as aiomqtt sets it up for the same options."""
        paho = mqtt.Client(callback_api_version=CallbackAPIVersion.VERSION2, client_id=identifier,
                           protocol=mqtt.MQTTv311, clean_session=True, reconnect_on_failure=False)
        paho.on_connect, paho.on_disconnect = self._on_connect, self._on_disconnect
        paho.on_subscribe = paho.on_unsubscribe = self._on_ack
        paho.on_publish, paho.on_message = self._on_publish, self._on_message
        paho.on_socket_open, paho.on_socket_close = self._on_socket_open, self._on_socket_close
        paho.on_socket_register_write = self._on_register_write
        paho.on_socket_unregister_write = self._on_unregister_write
        paho.enable_logger(logging.getLogger("mqtt"))  # paho's own errors, at WARNING
        if username is not None:
            paho.username_pw_set(username, password)
        if tls_context is not None:
            paho.tls_set_context(tls_context)
        if will is not None:
            paho.will_set(will.topic, will.payload, will.qos, will.retain)
        return paho

    # ---- connection -------------------------------------------------------------------------
    async def __aenter__(self) -> PahoClient:
        try:  # connect() blocks on the TCP (and TLS) handshake: a thread, as aiomqtt does
            await self._loop.run_in_executor(None, self._paho.connect, self._host, self._port,
                                             self._keepalive)
        except (OSError, mqtt.WebsocketConnectionError) as exc:  # ssl.SSLError is an OSError
            self._close_socket()
            raise MqttError(str(exc)) from None
        except BaseException:  # cancelled (the transport stops): the thread may still connect
            self._close_socket()
            raise
        sock = self._paho.socket()
        for option in self._socket_options if isinstance(sock, socket.socket) else ():
            sock.setsockopt(*option)
        try:
            await self._wait(self._connected)
        except BaseException:  # refused, timed out or cancelled
            self._close_socket()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        try:
            if not self._disconnected.done() and self._paho.disconnect() == mqtt.MQTT_ERR_SUCCESS:
                self._flush()
                await self._wait(self._disconnected)
        except MqttError:
            pass  # the broker did not answer the goodbye: the socket goes anyway
        finally:
            if not self._disconnected.done():
                self._disconnected.set_result(None)
            elif not self._disconnected.cancelled():
                self._disconnected.exception()  # seen (serve() may have been cancelled)
            self._close_socket()

    async def serve(self, deliver: Callable[[Any], None]) -> None:
        """Until the connection ends (MqttError if it broke); messages went to on_message."""
        await self._disconnected

    async def _wait(self, future: asyncio.Future[Any], timeout: float | None = None) -> Any:
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout or TIMEOUT)
        except TimeoutError:
            raise MqttError("Operation timed out") from None

    def _lost(self, exc: BaseException) -> None:
        """The socket broke under paho (a broken pipe, a TLS error): serve() ends with it."""
        if not self._disconnected.done():
            error = exc if isinstance(exc, MqttError) else MqttError(f"Disconnected: {exc}")
            error.__cause__ = None if error is exc else exc
            self._disconnected.set_exception(error)

    # ---- requests ---------------------------------------------------------------------------
    async def subscribe(self, topic_filter: str, qos: int = 1) -> None:
        rc, mid = self._paho.subscribe(topic_filter, qos)
        await self._acknowledged(rc, mid, "Could not subscribe to topic")

    async def unsubscribe(self, topic_filter: str) -> None:
        rc, mid = self._paho.unsubscribe(topic_filter)
        await self._acknowledged(rc, mid, "Could not unsubscribe from topic")

    async def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False,
                      timeout: float | None = None) -> None:
        info = self._paho.publish(topic, payload, qos, retain)
        await self._acknowledged(info.rc, info.mid if qos else None, "Could not publish message", timeout)

    def publish_nowait(self, topic: str, payload: bytes, qos: int, retain: bool) -> bool:
        """Queued, and written now unless paho is reading (then as soon as the read returns)."""
        ok = self._paho.publish(topic, payload, qos, retain).rc == mqtt.MQTT_ERR_SUCCESS
        self._flush()
        return ok

    def want_write(self) -> bool:
        """Are packets still waiting to be written?"""
        return self._paho.want_write()

    async def _acknowledged(self, rc: int, mid: int | None, what: str,
                            timeout: float | None = None) -> None:
        if rc != mqtt.MQTT_ERR_SUCCESS:
            broken = self._disconnected.exception() if self._disconnected.done() else None
            raise MqttCodeError(rc, what) from broken
        if mid is None:  # QoS 0: nothing comes back
            self._flush()
            return
        ack = self._acks[mid] = self._loop.create_future()
        try:
            self._flush()  # after the future exists: a QoS 0 write completes at once
            await self._wait(ack, timeout)
        finally:
            self._acks.pop(mid, None)

    # ---- paho's callbacks (on the loop thread, but for the socket's opening) ----------------
    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any = None) -> None:
        if self._connected.done():
            return
        if reason_code == mqtt.CONNACK_ACCEPTED:
            self._connected.set_result(None)
        else:
            self._connected.set_exception(MqttCodeError(reason_code, "Connection refused"))

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason_code: Any, properties: Any = None) -> None:
        # before a CONNACK the connect waits out its timeout, as with aiomqtt
        if self._disconnected.done() or not self._connected.done() or self._connected.exception():
            return
        if reason_code == mqtt.MQTT_ERR_SUCCESS:
            self._disconnected.set_result(None)
        else:
            self._disconnected.set_exception(MqttCodeError(reason_code, "Unexpected disconnection"))

    def _on_ack(self, client: Any, userdata: Any, mid: int, reason_codes: Any, properties: Any = None) -> None:
        ack = self._acks.get(mid)
        if ack is not None and not ack.done():
            ack.set_result(None)

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason_code: Any, properties: Any = None) -> None:
        self._on_ack(client, userdata, mid, reason_code, properties)

    def _on_message(self, client: Any, userdata: Any, message: mqtt.MQTTMessage) -> None:
        payload = message.payload if isinstance(message.payload, (bytes, bytearray)) else b""
        self._context.run(self._deliver, message.topic, bytes(payload), bool(message.retain))

    def _on_socket_open(self, client: Any, userdata: Any, sock: Any) -> None:
        if self._closed:  # the connect was given up while this thread was still at it
            sock.close()
            return
        self._sock = sock  # from the connect thread: the loop takes it from here
        self._loop.call_soon_threadsafe(self._watch, sock)

    def _watch(self, sock: Any) -> None:
        if sock is self._sock and sock.fileno() >= 0:
            self._loop.add_reader(sock.fileno(), self._readable)
            self._misc = self._loop.create_task(self._keepalive_checks())

    def _on_socket_close(self, client: Any, userdata: Any, sock: Any) -> None:
        # paho calls this just before it closes the socket: its number is still good now
        self._on_loop(self._unwatch, sock, sock.fileno())

    def _unwatch(self, sock: Any, fd: int) -> None:
        if fd >= 0:
            self._loop.remove_reader(fd)
            self._loop.remove_writer(fd)
        self._watching_writes = False
        if self._misc is not None:
            self._misc.cancel()
        if sock is self._sock:
            self._sock = None

    def _on_register_write(self, client: Any, userdata: Any, sock: Any) -> None:
        # paho asks while queueing. On the loop's thread whoever queued flushes right after
        # (a request, or the read or keepalive check that paho was in), and `_write` watches
        # for writability if the socket would not take everything; from the connect thread
        # (the CONNECT packet) the loop is asked to look
        if threading.get_ident() != self._loop_thread:
            self._loop.call_soon_threadsafe(self._writer_if_needed)

    def _on_unregister_write(self, client: Any, userdata: Any, sock: Any) -> None:
        # after every write that empties paho's queue: nearly always nothing to undo
        if self._watching_writes and sock.fileno() >= 0:
            self._on_loop(self._stop_watching_writes, sock.fileno())

    def _stop_watching_writes(self, fd: int) -> None:
        self._watching_writes = False
        self._loop.remove_writer(fd)

    def _on_loop(self, callback: Callable[..., Any], *args: Any) -> None:
        """Run now on the loop's thread, or soon from another (the connect thread)."""
        if threading.get_ident() == self._loop_thread:
            callback(*args)
        else:
            self._loop.call_soon_threadsafe(callback, *args)

    # ---- driving paho -----------------------------------------------------------------------
    def _readable(self) -> None:
        sock = self._sock
        self._inside = True
        try:
            self._paho.loop_read()
            # a TLS socket may hold decrypted bytes the selector will not report again
            while sock is not None and sock is self._sock and hasattr(sock, "pending") and sock.pending() > 0:
                self._paho.loop_read()
        except Exception as exc:  # a broken pipe, a TLS error: the connection is gone
            self._lost(exc)
        finally:
            self._inside = False
        self._flush()

    def _flush(self) -> None:
        """Write what paho has queued, unless paho itself is running (it would re-enter)."""
        if self._inside or self._sock is None or threading.get_ident() != self._loop_thread:
            return
        if self._paho.want_write():
            self._write()

    def _write(self) -> None:
        self._inside = True
        try:
            self._paho.loop_write()  # unregisters the write interest itself once all is sent
        except Exception as exc:
            self._lost(exc)
        finally:
            self._inside = False
        self._writer_if_needed()  # what the socket would not take yet: when it is writable

    def _writer_if_needed(self) -> None:
        sock = self._sock
        if self._disconnected.done():  # a broken socket would report writable forever
            return
        if sock is not None and sock.fileno() >= 0 and self._paho.want_write():
            self._watching_writes = True
            self._loop.add_writer(sock.fileno(), self._write)

    async def _keepalive_checks(self) -> None:
        while True:
            self._inside = True
            try:
                rc = self._paho.loop_misc()
            except Exception as exc:
                self._lost(exc)
                return
            finally:
                self._inside = False
            self._flush()  # a PINGREQ
            if rc != mqtt.MQTT_ERR_SUCCESS:
                return
            await asyncio.sleep(MISC_EVERY)

    def _close_socket(self) -> None:
        """Let go of the socket whatever state paho left it in (a fresh client connects next)."""
        sock, self._sock = self._sock, None
        self._closed = True
        if self._misc is not None:
            self._misc.cancel()
        # paho may still hold the socket and close it when collected, on any thread, maybe
        # after the loop has closed: it then has nobody to tell
        self._paho.on_socket_close = self._paho.on_socket_unregister_write = None
        self._paho.on_socket_register_write = None
        if sock is not None:
            if sock.fileno() >= 0:
                self._loop.remove_reader(sock.fileno())
                self._loop.remove_writer(sock.fileno())
            self._watching_writes = False
            try:
                sock.close()
            except OSError:
                pass

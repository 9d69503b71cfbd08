"""What a finished game leaves in mosquitto: the topic tree of its retained messages.

A game publishes retained messages on its own topics (the announcement on `lobby/<gid>`, each
peer's presence on `game/<gid>/presence/<peer>`) and clears them when it ends, so no retained
message outlives the game. Measured here on Debian's mosquitto as its own process, with its own
heap count (`$SYS/broker/heap/current`): N games' worth of those retained messages set and
cleared with the topic names a real game uses (`net.topics.Topics`), next to baselines in the same
run: the same messages not retained, and the same N games' topics set and cleared a second time.
Figures only: bytes of heap per game after each pattern.

    .venv/bin/python bench/broker_retained.py [--games 1000] [--peers 4]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from net.broker import free_port  # noqa: E402
from net.topics import Topics  # noqa: E402

MOSQUITTO = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")
HEAP = "$SYS/broker/heap/current"


class Mosquitto:
    """A mosquitto of its own on loopback that reports its heap every second."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        conf = folder / "mosquitto.conf"
        conf.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\nsys_interval 1\n"
                        "persistence false\n")
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        self.heap = 0
        self.monitor = self.client("heap-monitor")
        self.monitor.on_message = self._on_heap
        self.monitor.subscribe(HEAP)

    def client(self, name: str) -> mqtt.Client:
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=name, clean_session=True)
        client.connect("127.0.0.1", self.port)
        client.loop_start()
        return client

    def _on_heap(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        self.heap = int(message.payload)

    def settled_heap(self) -> int:
        """The heap once the broker has sent a fresh figure (its $SYS interval is 1 s)."""
        time.sleep(2.5)
        return self.heap

    def stop(self) -> None:
        self.monitor.loop_stop()
        self.process.terminate()
        self.process.wait(timeout=10)


def game_topics(n: int, peers: int, tag: str) -> list[list[str]]:
    """The retained topics of n games, as a real game names them: its announcement, a presence
    per peer (peer ids are 16 hex digits)."""
    games = []
    for i in range(n):
        topics = Topics(f"money-{tag}{i:07x}")
        games.append([topics.lobby, *(topics.presence(os.urandom(8).hex()) for _ in range(peers))])
    return games


def publish_all(client: mqtt.Client, games: list[list[str]], retain: bool) -> None:
    for topics in games:
        for topic in topics:
            client.publish(topic, b"p" * 200, qos=1, retain=retain).wait_for_publish()
            if retain:  # the game's end clears it, as the peers and the relay do
                client.publish(topic, b"", qos=1, retain=True).wait_for_publish()


def measure(broker: Mosquitto, label: str, games: int, run: Callable[[], None]) -> None:
    before = broker.settled_heap()
    started = time.perf_counter()
    run()
    seconds = time.perf_counter() - started
    after = broker.settled_heap()
    print(f"{label:<52} {(after - before) / games:>8.0f} B/game   ({before} -> {after} B, {seconds:.1f} s)",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--peers", type=int, default=4)
    args = parser.parse_args()
    if MOSQUITTO is None:
        parser.error("needs mosquitto (apt-get install mosquitto)")
    with tempfile.TemporaryDirectory() as folder:
        broker = Mosquitto(Path(folder))
        try:
            version = subprocess.run([MOSQUITTO, "-h"], capture_output=True, text=True).stdout.splitlines()[0]
            print(f"{version}; {args.games} games of {args.peers} peers, 200-byte payloads")
            client = broker.client("publisher")
            first, fresh = game_topics(args.games, args.peers, "a"), game_topics(args.games, args.peers, "b")
            plain = game_topics(args.games, args.peers, "c")
            measure(broker, "baseline: the same messages, not retained", args.games,
                    lambda: publish_all(client, plain, retain=False))
            measure(broker, "retained, then cleared (what a game does)", args.games,
                    lambda: publish_all(client, first, retain=True))
            measure(broker, "the same games' topics again (no new topic)", args.games,
                    lambda: publish_all(client, first, retain=True))
            measure(broker, "another N games, new topics", args.games,
                    lambda: publish_all(client, fresh, retain=True))
            client.loop_stop()
        finally:
            broker.stop()


if __name__ == "__main__":
    main()

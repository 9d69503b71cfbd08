"""CPU cost of the mental-poker deck (net/deck) for a 7-player 7 Wonders Age deal.

All seats in one process, no network: 49 cards shuffled and locked by 7 seats (both passes,
every published deck accepted once), then 7 hands of 7 revealed privately (each seat seals one
box of 7 keys to each other seat; each receiver opens 6 boxes, checks 42 keys against their
commitments and unmasks 7 cards). Also: CPU per private reveal of one card at the receiver,
per public reveal, per audit, and baselines measured in the same run (an Ed25519 signature
verify, a plain Fisher-Yates shuffle of 49 cards from engine.core.rng). The target in issue 13
is a whole Age deal within 250 ms wall on mosquitto with the peers in one process; the
network's share is measured over mosquitto by bench/hidden_cards.py.

    .venv/bin/python bench/deck_protocol.py [ROUNDS]   (default 5; the best round is shown)

"wall" is the deal's elapsed time in this process: on a shared machine it can exceed the CPU
time by a lot; the CPU figures are the ones to compare.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgpack  # noqa: E402
from nacl.signing import SigningKey  # noqa: E402

from engine.core import Rng  # noqa: E402
from net.deck import DeckSeat, DeckSpec, DeckTable, audit, box_secret  # noqa: E402

SEATS = 7
HAND = 7
CARDS = tuple(f"card-{i}" for i in range(SEATS * HAND))


class Table:
    """Seven seats of one deck with their identities, fresh entropy per round."""

    def __init__(self, round_no: int) -> None:
        self.spec = DeckSpec(f"bench-{round_no}", "age1", CARDS, SEATS)
        self.seats = [
            DeckSeat.create(self.spec, s, bytes([round_no % 256, s]) * 16) for s in range(SEATS)
        ]
        seeds = [bytes([200 + s]) * 32 for s in range(SEATS)]
        self.publics = [bytes(SigningKey(seed).verify_key) for seed in seeds]
        self.secrets = [box_secret(seed) for seed in seeds]
        self.table = DeckTable.new(self.spec)
        self.bodies: list[dict] = []

    def passes(self) -> None:
        table = self.table
        for seat in self.seats:
            body = seat.shuffle(table)
            table = table.accept_shuffle(seat.seat, body)
            self.bodies.append(body)
        for seat in self.seats:
            body = seat.lock(table)
            table = table.accept_lock(seat.seat, body)
            self.bodies.append(body)
        self.table = table

    def hand(self, to: int) -> list[int]:
        return [to * HAND + i for i in range(HAND)]

    def seal_all(self) -> list[tuple[int, int, dict]]:
        """Every seat's box to every other seat: (sender, receiver, body)."""
        return [
            (seat.seat, to, seat.send_keys(self.hand(to), to, self.publics[to]))
            for seat in self.seats for to in range(SEATS) if to != seat.seat
        ]

    def open_all(self, boxes: list[tuple[int, int, dict]]) -> list[int | None]:
        for sender, to, body in boxes:
            self.seats[to].receive_keys(self.table, sender, body, self.secrets[to])
        return [self.seats[to].card_at(self.table, pos)
                for to in range(SEATS) for pos in self.hand(to)]


def cpu(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def per_call(fn: Callable[[], object], n: int) -> float:
    start = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - start) / n


def deal_round(round_no: int) -> dict[str, float]:
    t = Table(round_no)
    wall = time.perf_counter()
    passes, _ = cpu(t.passes)
    seal, boxes = cpu(t.seal_all)
    opened, cards = cpu(lambda: t.open_all(boxes))  # type: ignore[arg-type]
    wall = time.perf_counter() - wall
    assert sorted(cards) == list(range(len(CARDS)))  # type: ignore[arg-type]
    took_audit, result = cpu(lambda: audit(t.table, {s.seat: s.audit() for s in t.seats}))
    assert result.verified  # type: ignore[union-attr]
    return {"passes": passes, "seal": seal, "open": opened, "wall": wall, "audit": took_audit,
            "pass_bytes": sum(len(msgpack.packb(b)) for b in t.bodies),
            "key_bytes": sum(len(msgpack.packb(b)) for _, _, b in boxes)}


def reveal_costs(rounds: int) -> tuple[float, float, float]:
    """(one card alone at the receiver, one card within a hand of 7, one public reveal)."""
    t = Table(999)
    t.passes()
    alone, in_hand, public = [], [], []
    for r in range(rounds):
        pos = r % len(CARDS)
        to = (r + 1) % SEATS
        single = [(s.seat, s.send_keys([pos], to, t.publics[to])) for s in t.seats if s.seat != to]
        fresh = DeckSeat(t.spec, to, t.seats[to].secrets)

        def receive_one(seat: DeckSeat = fresh, boxes=single, pos: int = pos, to: int = to) -> None:
            for sender, body in boxes:
                seat.receive_keys(t.table, sender, body, t.secrets[to])
            seat.card_at(t.table, pos)

        alone.append(cpu(receive_one)[0])
        hand = t.hand(to)
        boxes = [(s.seat, s.send_keys(hand, to, t.publics[to])) for s in t.seats if s.seat != to]
        fresh = DeckSeat(t.spec, to, t.seats[to].secrets)

        def receive_hand(seat: DeckSeat = fresh, boxes=boxes, hand=hand, to: int = to) -> None:
            for sender, body in boxes:
                seat.receive_keys(t.table, sender, body, t.secrets[to])
            for p in hand:
                seat.card_at(t.table, p)

        in_hand.append(cpu(receive_hand)[0] / HAND)
        bodies = [(s.seat, s.public_key(pos)) for s in t.seats]

        def open_public(bodies=bodies, pos: int = pos) -> None:
            # what a peer does with the 7 published keys: check each, then unmask
            keys = [t.table.accept_public(seat, body)[1] for seat, body in bodies]
            t.table.unmask(pos, keys)

        public.append(cpu(open_public)[0])
    return min(alone), min(in_hand), min(public)


def baselines() -> tuple[float, float, float]:
    key = SigningKey(bytes(32))
    signed = key.sign(bytes(3300))  # about one lock pass body
    verify = per_call(lambda: key.verify_key.verify(signed), 300)
    sign = per_call(lambda: key.sign(bytes(3300)), 300)
    rng = Rng(bytes(32))
    shuffle = per_call(lambda: rng.shuffle(CARDS), 300)
    return verify, sign, shuffle


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.0f} µs"


def main(rounds: int) -> None:
    runs = [deal_round(r) for r in range(rounds)]
    best = min(runs, key=lambda r: r["passes"] + r["seal"] + r["open"])
    total = best["passes"] + best["seal"] + best["open"]
    median = statistics.median(r["passes"] + r["seal"] + r["open"] for r in runs)
    alone, in_hand, public = reveal_costs(max(rounds, 10))
    verify, sign, shuffle = baselines()
    print(f"deck protocol, {SEATS} seats, {len(CARDS)} cards, all seats in one process, "
          f"best of {rounds} (CPU)")
    print(f"  Age deal, CPU:         {ms(total)} (median {ms(median)}; wall {ms(best['wall'])})")
    print(f"    both passes:         {ms(best['passes'])} (14 turns, one after another)")
    print(f"    7 hands sealed:      {ms(best['seal'])} (42 boxes of 7 keys)")
    print(f"    7 hands opened:      {ms(best['open'])} (42 boxes, 294 key checks, 49 cards)")
    print(f"  private reveal, CPU at the receiver per card: {us(in_hand)} within a hand of 7, "
          f"{us(alone)} alone")
    print(f"  public reveal, CPU per card (7 keys checked, 1 unmask): {us(public)}")
    print(f"  end audit (7 seats' passes replayed): {ms(min(r['audit'] for r in runs))}")
    print(f"  baselines: Ed25519 verify {us(verify)}, sign {us(sign)} (3.3 kB); "
          f"plain Fisher-Yates of 49 cards {us(shuffle)}")
    print(f"  bytes: pass bodies {best['pass_bytes']:,}, key boxes {best['key_bytes']:,} (msgpack)")
    print(f"  target: an Age deal within 250 ms wall -> the CPU part is {100 * total / 0.25:.0f}% "
          f"of it (the whole deal over mosquitto: bench/hidden_cards.py)")

if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)

"""The RNG against its committed vectors, so any other implementation can check itself too."""

import json
from hashlib import sha256
from pathlib import Path

import pytest

from engine.core import Rng, Stream, seed_bytes

VECTORS = json.loads((Path(__file__).parents[2] / "vectors" / "rng.json").read_text())


@pytest.mark.parametrize("case", VECTORS["blocks"])
def test_block_is_sha256_of_seed_and_big_endian_counter(case):
    seed = bytes.fromhex(case["seed"])
    assert sha256(seed + case["counter"].to_bytes(8, "big")).hexdigest() == case["sha256"]


@pytest.mark.parametrize("case", VECTORS["below"])
def test_below_matches_vectors(case):
    rng = Rng(bytes.fromhex(case["seed"]))
    values = []
    for _ in case["values"]:
        value, rng = rng.below(case["n"])
        values.append(value)
    assert values == case["values"]
    assert rng.counter == case["counter_after"]


@pytest.mark.parametrize("case", VECTORS["shuffle"])
def test_shuffle_matches_vectors(case):
    out, rng = Rng(bytes.fromhex(case["seed"])).shuffle(case["items"])
    assert list(out) == case["result"]
    assert rng.counter == case["counter_after"]


def test_below_stays_in_range_and_rejects_out_of_range_blocks():
    rng = Rng(b"range")
    seen = set()
    for _ in range(300):
        value, rng = rng.below(3)
        seen.add(value)
    assert seen == {0, 1, 2}
    # 300 draws below 3 with a 2-bit mask need more than 300 blocks: rejection happened.
    assert rng.counter > 300


def test_rng_is_immutable_and_repeatable():
    rng = Rng(b"same")
    assert rng.below(100) == rng.below(100)
    assert rng.counter == 0


def test_stream_matches_rng_and_forks_independently():
    stream, rng = Stream(b"s"), Rng(b"s")
    for n in (5, 17, 2):
        value, rng = rng.below(n)
        assert stream.below(n) == value
    fork_a, fork_b = stream.fork("a"), stream.fork("b")
    assert [fork_a.below(10**9) for _ in range(3)] != [fork_b.below(10**9) for _ in range(3)]
    assert Stream(b"s").fork("a").below(10**9) == Stream(b"s").fork("a").below(10**9)


def test_seed_bytes_accepts_ints_and_strings_distinctly():
    assert seed_bytes(1) != seed_bytes("1")
    assert seed_bytes(b"x") == b"x"
    with pytest.raises(TypeError):
        seed_bytes(1.5)  # type: ignore[arg-type]


def test_bit_stream_spends_one_block_on_many_small_draws_and_stays_in_range():
    from engine.core.rng import BitStream

    stream = BitStream(b"bits")
    draws = [stream.below(6) for _ in range(600)]
    assert set(draws) == set(range(6))
    assert stream.counter < 60  # 3 bits a draw (with rejections) from 256-bit blocks
    again = BitStream(b"bits")
    assert [again.below(6) for _ in range(600)] == draws
    assert BitStream(b"bits").below(1) == 0
    with pytest.raises(ValueError):
        BitStream(b"bits").below(0)


def test_bit_stream_draws_wide_numbers_across_blocks():
    from engine.core.rng import BitStream

    stream = BitStream(b"wide")
    values = [stream.below(1 << 60) for _ in range(50)]
    assert len(set(values)) == 50 and max(values) >= 1 << 58

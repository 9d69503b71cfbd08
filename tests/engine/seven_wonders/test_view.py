"""Views: what each seat may see (§8), and that a screen can draw a pick from the view alone."""

from __future__ import annotations

from dataclasses import replace

from engine.core import HIDDEN, Stream, canonical, decode, pick_uniform, to_plain
from engine.seven_wonders import GAME, view_context
from engine.seven_wonders.picks import card_options
from engine.seven_wonders.state import BABYLON, HALIKARNASSOS, Pick

from ..strings import strings_in
from .helpers import table


def test_a_seat_sees_its_hand_and_only_counts_of_the_others() -> None:
    state = GAME.setup(4, b"view", {})
    view = GAME.view(state, 1)
    assert view.hand == state.hands[1]
    assert view.hand_sizes == (7, 7, 7, 7)
    others = {c for s in (0, 2, 3) for c in state.hands[s]} - set(state.hands[1])
    assert not others & strings_in(to_plain(view))
    spectator = GAME.view(state, None)
    assert spectator.hand == () and spectator.options == ()


def test_views_are_equal_for_states_differing_only_in_hidden_cards() -> None:
    state = GAME.setup(3, b"swap", {})
    swapped = replace(state, hands=(state.hands[0], state.hands[2], state.hands[1]), guilds=state.guilds[::-1])
    assert GAME.view(state, 0) == GAME.view(swapped, 0)
    assert GAME.view(state, 1) != GAME.view(swapped, 1)


def test_view_holds_no_rng_no_deck_order_and_round_trips() -> None:
    state = GAME.setup(5, b"plain", {"wonder_side": "random"})
    view = GAME.view(state, 2)
    assert decode(canonical(view)) == view
    assert state.rng.seed not in [v for v in _walk(to_plain(view))]
    assert not any(g in strings_in(to_plain(view)) for g in state.guilds)


def _walk(data):
    stack = [data]
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


def test_stages_and_discards_show_the_action_not_the_card_except_to_their_owner() -> None:
    s = table(["gizah", "rhodos", "olympia"], [["age1_stone_pit"], [], []],
              hands=[["age1_altar", "age1_theater"], ["age1_baths", "age1_tavern"], ["age1_loom", "age1_press"]])
    s = GAME.apply(s, {0: Pick("age1_altar", "stage"), 1: Pick("age1_baths", "discard"),
                       2: Pick("age1_loom", "build")})
    for seat in range(3):
        moves = {m.seat: m for m in GAME.view(s, seat).moves}
        assert moves[2].card == "age1_loom"
        assert moves[0].card == ("age1_altar" if seat == 0 else HIDDEN)
        assert moves[1].card == ("age1_baths" if seat == 1 else HIDDEN)
    assert GAME.view(s, 0).tucked == ("age1_altar",)
    assert GAME.view(s, 1).my_discards == ("age1_baths",) and GAME.view(s, 1).discard_count == 1
    assert GAME.view(s, 0).my_discards == () and GAME.view(s, 0).discard_pile == ()


def test_discard_pile_shown_to_halikarnassos_during_its_step_only() -> None:
    s = table(["halikarnassos", "rhodos", "gizah"], [["age1_ore_vein", "age2_foundry"], [], []], stages=[1, 0, 0],
              age=2, hands=[["age2_school", "age2_press"], ["age2_vineyard", "age2_loom"],
                            ["age2_glassworks", "age2_bazar"]])
    s = replace(s, discard=((1, "age1_altar"),))
    s = GAME.apply(s, {0: Pick("age2_school", "stage"), 1: Pick("age2_vineyard", "discard"),
                       2: Pick("age2_glassworks", "build")})
    assert s.phase == HALIKARNASSOS
    assert GAME.view(s, 0).discard_pile == ("age1_altar", "age2_vineyard")
    assert GAME.view(s, 2).discard_pile == ()
    assert "age1_altar" not in strings_in(to_plain(GAME.view(s, 2)))


def test_babylon_kept_card_is_its_owners_only() -> None:
    s = table(["babylon", "rhodos", "gizah"], [[], [], []], sides=["B", "A", "A"], stages=[2, 0, 0], age=2, turn=6,
              hands=[["age2_walls", "age2_school"], ["age2_press", "age2_loom"], ["age2_glassworks", "age2_bazar"]])
    s = GAME.apply(s, {0: Pick("age2_school", "discard"), 1: Pick("age2_press", "discard"),
                       2: Pick("age2_glassworks", "discard")})
    assert s.phase == BABYLON
    mine = GAME.view(s, 0)
    assert mine.kept == "age2_walls" and mine.hand == ("age2_walls",) and mine.budget == 3
    assert [o.card for o in mine.options] == ["age2_walls"]
    assert "age2_walls" not in strings_in(to_plain(GAME.view(s, 1)))


def test_view_options_match_the_legal_actions_and_rebuild_from_the_view() -> None:
    rng = Stream(b"options")
    for n in (3, 5, 7):
        state = GAME.setup(n, rng.seed + bytes([n]), {"wonder_side": "random"})
        while not GAME.is_over(state):
            for seat in GAME.active(state):
                view = GAME.view(state, seat)
                legal = set(GAME.legal_actions(state, seat))
                if state.phase in ("pick", BABYLON):
                    assert legal == _actions_from_options(view)
                    again = card_options(view_context(view), view.hand, view.free_build)
                    assert again == (view.options, view.stage_payments)
            state = GAME.apply(state, {s: pick_uniform(GAME.legal_actions(state, s), rng) for s in GAME.active(state)})


def _actions_from_options(view) -> set:
    out = set()
    for o in view.options:
        out |= {Pick(o.card, "build", p.pay_left, p.pay_right) for p in o.payments}
        if o.free_build:
            out.add(Pick(o.card, "build_free"))
        out |= {Pick(o.card, "stage", p.pay_left, p.pay_right) for p in view.stage_payments}
        out.add(Pick(o.card, "discard"))
    return out


def test_final_view_shows_scores_wildcards_and_copy() -> None:
    state = GAME.setup(3, b"final", {})
    rng = Stream(b"final")
    while not GAME.is_over(state):
        state = GAME.apply(state, {s: pick_uniform(GAME.legal_actions(state, s), rng) for s in GAME.active(state)})
    view = GAME.view(state, None)
    result = GAME.result(state)
    assert tuple(f.total for f in view.final) == result.scores
    assert tuple(f.categories for f in view.final) == result.breakdown


def test_view_gives_each_city_its_production_and_what_it_sells() -> None:
    from engine.seven_wonders.cards import RES_INDEX

    s = table(["gizah", "rhodos", "olympia"], [["age1_lumber_yard", "age2_forum", "age1_stockade"], [], []])
    mine = GAME.view(s, 1).production[0]  # any seat sees every city's production
    assert mine.makes[RES_INDEX["stone"]] == 1 and mine.makes[RES_INDEX["wood"]] == 1  # board, Lumber Yard
    assert sum(mine.makes) == 2 and mine.sells == mine.makes
    forum = tuple(sorted(RES_INDEX[r] for r in ("glass", "textile", "papyrus")))
    assert mine.makes_one_of == (forum,) and mine.sells_one_of == ()  # a Forum's good is not for sale
    assert mine.shields == 1 and GAME.view(s, None).production[1].shields == 0


def test_view_keeps_every_ages_conflicts_and_a_replay_gives_them_back() -> None:
    from engine.core import final_state, new_log

    state = GAME.setup(4, b"wars", {})
    log = new_log(GAME, 4, b"wars", GAME.check_options({}))
    rng = Stream(b"wars")
    while not GAME.is_over(state):
        before = state
        chosen = {s: pick_uniform(GAME.legal_actions(state, s), rng) for s in GAME.active(state)}
        state = GAME.apply(state, chosen)
        log = log.append(chosen)
        view = GAME.view(state, 0)
        if state.age != before.age or GAME.is_over(state):  # an Age has just ended
            last = view.conflicts[-1]
            assert len(view.conflicts) == before.age and last.age == before.age
            # the shields compared are those of the cities at the end of the Age
            assert last.shields == tuple(p.shields for p in GAME.view(before, None).production)
            for seat in range(4):
                left, right = last.results[seat]
                theirs = last.results[(seat + 1) % 4][1]  # the left neighbour's result against us
                assert (left > 0) == (theirs < 0) and (left == 0) == (theirs == 0)
                assert left in (0, -1, (1, 3, 5)[before.age - 1])
                assert (left > 0) == (last.shields[seat] > last.shields[(seat + 1) % 4])
                assert (right < 0) == (last.shields[seat] < last.shields[(seat - 1) % 4])
                new = state.tokens[seat][len(before.tokens[seat]):]
                assert new == tuple(t for t in (left, right) if t)
    assert [c.age for c in GAME.view(state, None).conflicts] == [1, 2, 3]
    assert GAME.view(final_state(GAME, log), 2).conflicts == GAME.view(state, 2).conflicts


def test_the_view_counts_each_citys_science_as_the_final_scoring_does() -> None:
    """§ science: the screen shows symbols and wildcards from the view; at the end, scored by
    the rules' best choice of wildcards, they give each city's science points exactly."""
    from engine.bots import play_game
    from engine.seven_wonders.scoring import best_science
    from engine.seven_wonders.view import final_scores

    checked = 0
    for seed in range(12):
        state = play_game(GAME, 5, f"science-{seed}").state
        view = GAME.view(state, None)
        for seat, score in enumerate(final_scores(state)):
            if score.copied_guild is not None:
                continue  # Olympia B may copy a Scientists Guild: one more wildcard at the end
            made = view.production[seat]
            assert best_science(made.science, made.science_wild)[0] == dict(score.categories)["science"]
            checked += made.science_wild + sum(made.science) > 0
    assert checked >= 10

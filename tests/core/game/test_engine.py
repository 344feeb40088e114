"""The engine's state beyond the `--json` document: speeches, checks, the best-move
window, what a spectator sees, a console's incremental game, settings and the log's
own form."""

from __future__ import annotations

import json

import pytest

from mafiatab.core.game import (
    FIIM_ONLINE_TABLE,
    FIIM_TABLE,
    MESSAGES,
    BlockResult,
    EventType,
    Game,
    GameLogError,
    Outcome,
    SpeechKind,
    VotingStatus,
    effect_of,
    get_table_settings,
    judge_json,
    parse_event,
    parse_log,
    protocol,
    public_json,
    replay,
    replay_json,
)
from mafiatab.core.roles import Winner

SEATS = [
    "Alpha",
    "Bravo",
    "Charlie",
    "Delta",
    "Echo",
    "Foxtrot",
    "Golf",
    "Hotel",
    "India",
    "Juliett",
]


def a_log(events, table="fiim", **extra):
    return {
        "format": "mafiatab-game-log/1",
        "table": table,
        "seats": SEATS,
        "roles": {"sheriff": 3, "don": 5, "black": [7, 9]},
        "events": events,
        **extra,
    }


def state_of(events, **kw):
    return replay(parse_log(a_log(events, **kw)))


NIGHT, DAY = {"type": "night"}, {"type": "day"}


def kill(seat, shooters=(5, 7, 9)):
    return {"type": "shots", "by": {str(s): seat for s in shooters}}


def miss(shooters=(5, 7, 9)):
    return {"type": "shots", "by": {str(s): None for s in shooters}}


def nominate(by, seat):
    return {"type": "nominate", "by": by, "seat": seat}


def foul(seat):
    return {"type": "foul", "seat": seat}


def remove(seat, reason="insult"):
    return {"type": "remove", "seat": seat, "reason": reason}


# --- speeches -------------------------------------------------------------------


def test_day_one_speeches_start_with_seat_one():
    order = state_of([]).speech_order()
    assert [s.seat for s in order] == list(range(1, 11))
    assert {s.seconds for s in order} == {60}


def test_a_night_kill_has_the_last_word_and_the_next_day_starts_after_the_first_speaker():
    state = state_of([NIGHT, kill(2), DAY])
    order = state.speech_order()
    assert (order[0].seat, order[0].kind) == (2, SpeechKind.LAST_WORD)
    # seat 2 would have opened day 2; he is dead, so the next living seat does.
    assert [s.seat for s in order[1:]] == [3, 4, 5, 6, 7, 8, 9, 10, 1]


def test_the_first_speaker_moves_round_the_table_day_after_day():
    state = state_of([NIGHT, miss(), DAY, NIGHT, miss(), DAY])
    assert state.first_speaker == 3
    assert state.speech_order()[0].seat == 3


def test_a_third_foul_at_night_costs_the_next_days_speech():
    state = state_of([NIGHT, foul(4), foul(4), foul(4), miss(), DAY])
    speech = next(s for s in state.speech_order() if s.seat == 4)
    assert (speech.kind, speech.seconds) == (SpeechKind.LOST, 0)
    later = replay(
        parse_log(a_log([NIGHT, foul(4), foul(4), foul(4), miss(), DAY, NIGHT, miss(), DAY]))
    )
    assert next(s for s in later.speech_order() if s.seat == 4).kind is SpeechKind.SPEECH


def test_a_third_foul_after_the_players_speech_costs_the_next_day():
    state = state_of([nominate(4, 7), foul(4), foul(4), foul(4)])
    assert state.lost_speech == ((4, 2),)
    assert all(s.kind is SpeechKind.SPEECH for s in state.speech_order())


# --- night ----------------------------------------------------------------------


def test_the_don_finding_the_sheriff_and_the_sheriff_finding_a_black_get_their_gestures():
    state = state_of(
        [NIGHT, kill(3), {"type": "don_check", "seat": 3}, {"type": "sheriff_check", "seat": 7}]
    )
    night = state.night
    assert night is not None
    assert (night.don_check.answer, night.don_check.gesture) == ("sheriff", "nod")
    assert night.sheriff_check.answer == "black"
    assert night.sheriff_check.gesture == "nod and thumb down, together"
    assert night.killed == 3


def test_the_sheriff_finding_red_and_the_don_missing_the_sheriff():
    state = state_of(
        [NIGHT, miss(), {"type": "don_check", "seat": 1}, {"type": "sheriff_check", "seat": 5}]
    )
    assert state.night.don_check.answer == "not_sheriff"
    assert state.night.don_check.gesture == "head shake"
    # the don is black-team: the sheriff finds black.
    assert state.night.sheriff_check.answer == "black"
    red = state_of([NIGHT, miss(), {"type": "sheriff_check", "seat": 1}])
    assert red.night.sheriff_check.gesture == "head shake and thumb up, together"


def test_a_night_expects_the_shots_then_the_checks_and_the_day():
    assert state_of([NIGHT]).expects()[0] is EventType.SHOTS
    after = state_of([NIGHT, miss()]).expects()
    assert after[:3] == (EventType.DON_CHECK, EventType.SHERIFF_CHECK, EventType.DAY)
    checked = state_of([NIGHT, miss(), {"type": "don_check", "seat": 1}]).expects()
    assert EventType.DON_CHECK not in checked


def test_a_don_voted_out_no_longer_checks():
    state = state_of(
        [nominate(1, 5), nominate(2, 4), {"type": "vote", "counts": [7, 3]}, NIGHT, miss((7, 9))]
    )
    assert EventType.DON_CHECK not in state.expects()
    assert EventType.SHERIFF_CHECK in state.expects()


# --- best move ------------------------------------------------------------------


def test_the_best_move_window_opens_after_a_first_night_kill_and_survives_fouls():
    assert state_of([NIGHT, kill(1), DAY]).best_move_open
    assert state_of(
        [NIGHT, kill(1), DAY, foul(2), {"type": "pause", "seat": 3, "minutes": 4, "reason": "x"}]
    ).best_move_open
    assert not state_of([NIGHT, kill(1), DAY, nominate(2, 7)]).best_move_open
    assert not state_of([NIGHT, miss(), DAY]).best_move_open
    assert not state_of([NIGHT, miss(), DAY, NIGHT, kill(1), DAY]).best_move_open


def test_after_a_kill_that_ends_the_game_only_the_best_move_is_expected():
    events = [
        nominate(1, 2),
        nominate(3, 4),
        {"type": "vote", "counts": [5, 5]},
        {"type": "vote", "counts": [5, 5]},
        {"type": "lift", "for": 6},
        {"type": "remove", "seat": 6, "reason": "threats"},
        NIGHT,
        kill(8),
        DAY,
    ]
    state = state_of(events)
    assert state.is_finished()
    assert state.expects() == (EventType.BEST_MOVE,)
    done = state_of([*events, {"type": "best_move", "seats": [5, 7, 9]}])
    assert done.expects() == ()
    assert protocol(done)["best_move"] == [5, 7, 9]


# --- the last word ---------------------------------------------------------------


def test_the_last_word_runs_from_the_vote_to_the_night_and_from_the_kill_to_a_nomination():
    voted = [nominate(1, 4), nominate(2, 6), {"type": "vote", "counts": [6, 4]}]
    assert state_of(voted).last_word == (4,)
    assert public_json(state_of(voted))["last_word"] == [4]
    assert state_of([*voted, NIGHT]).last_word == ()
    assert state_of([*voted, NIGHT, kill(1), DAY]).last_word == (1,)
    assert state_of([*voted, NIGHT, kill(1), DAY, foul(2)]).last_word == (1,)
    assert state_of([*voted, NIGHT, kill(1), DAY, nominate(2, 6)]).last_word == ()
    assert state_of([*voted, NIGHT, miss(), DAY]).last_word == ()


def test_the_lift_gives_every_seat_it_sends_out_a_last_word():
    events = [nominate(1, 4), nominate(2, 6), {"type": "vote", "counts": [5, 5]}]
    events += [{"type": "vote", "counts": [5, 5]}, {"type": "lift", "for": 6}]
    assert state_of(events).last_word == (4, 6)
    assert state_of([*events, remove(4)]).last_word == (6,)


def test_the_single_nominee_leaves_at_the_night_without_a_window_after_it():
    events = [NIGHT, miss(), DAY, nominate(1, 4), NIGHT]
    state = state_of(events)
    assert [d.to_json() for d in state.left] == [{"seat": 4, "how": "single", "day": 2}]
    assert state.last_word == ()


def test_a_third_foul_in_the_last_word_costs_no_speech():
    voted = [nominate(1, 4), nominate(2, 6), {"type": "vote", "counts": [6, 4]}]
    state = state_of([foul(4), foul(4), *voted, foul(4)])
    assert state.fouls[3] == 3
    assert state.lost_speech == ()


def test_a_removal_in_the_last_word_keeps_the_departure_and_the_draw_count():
    voted = [nominate(1, 4), nominate(2, 6), {"type": "vote", "counts": [6, 4]}]
    before = state_of(voted)
    after = state_of([*voted, remove(4)])
    assert after.left == before.left
    assert after.alive == before.alive
    assert after.quiet_since == before.quiet_since
    assert [r.seat for r in after.removals] == [4]
    assert after.cancelled_days == frozenset({2})


# --- what an event did --------------------------------------------------------------


def effects_of(events):
    """Each event's effect, replayed one by one."""
    game = Game(parse_log(a_log([])))
    found = []
    for event in events:
        before = game.state
        found.append(effect_of(before, game.append(event)))
    return found


def test_a_vote_tells_who_leaves_and_a_tie_goes_to_a_revote_then_the_lift():
    events = [nominate(1, 4), nominate(2, 6), nominate(3, 8)]
    events += [{"type": "vote", "counts": [4, 2, 4]}, {"type": "vote", "counts": [5, 5]}]
    events += [{"type": "lift", "for": 6}]
    *_, first, revote, lift = effects_of(events)
    assert first.block.result == BlockResult(Outcome.REVOTE, (4, 8))
    assert not first.block.revote and revote.block.revote
    assert revote.block.result == BlockResult(Outcome.LIFT, (4, 8))
    assert lift.block.result == BlockResult(Outcome.LEAVES, (4, 8))
    assert lift.block.lift == 6
    assert [(d.seat, d.how.value) for d in lift.left] == [(4, "lift"), (8, "lift")]
    assert first.left == revote.left == ()


def test_a_lost_lift_says_nobody_leaves():
    events = [nominate(1, 4), nominate(2, 6), {"type": "vote", "counts": [5, 5]}]
    events += [{"type": "vote", "counts": [5, 5]}, {"type": "lift", "for": 5}]
    lift = effects_of(events)[-1]
    assert lift.block.result == BlockResult(Outcome.NOBODY, (4, 6), "lift")
    assert lift.left == ()
    assert public_json(state_of(events))["blocks"][-1]["result"] == {
        "outcome": "nobody",
        "seats": [4, 6],
        "why": "lift",
    }


def test_the_vote_of_every_living_player_tied_and_the_single_nominees_say_what_came():
    tied = [nominate(n, n % 10 + 1) for n in range(1, 11)]
    vote = effects_of([*tied, {"type": "vote", "counts": [1] * 10}])[-1]
    assert vote.block.result == BlockResult(Outcome.NOBODY, why="all_tied")
    day_one = effects_of([nominate(1, 4), NIGHT])[-1]
    assert day_one.block.result == BlockResult(Outcome.NOBODY, (4,), "day1_single")
    later = effects_of([NIGHT, miss(), DAY, nominate(1, 4), NIGHT])[-1]
    assert later.block.result == BlockResult(Outcome.LEAVES, (4,))
    assert [d.how.value for d in later.left] == ["single"]


def test_the_day_tells_the_kill_or_the_miss_and_a_removal_its_cancelled_voting():
    killed = effects_of([NIGHT, kill(1), DAY])[-1]
    assert killed.night_kill is True and [d.seat for d in killed.left] == [1]
    missed = effects_of([NIGHT, miss(), DAY])[-1]
    assert missed.night_kill is False and missed.left == ()
    voted = [nominate(1, 4), nominate(2, 6), {"type": "vote", "counts": [6, 4]}]
    removed = effects_of([*voted, remove(4)])[-1]
    assert removed.cancelled == 2 and removed.left == () and removed.block is None
    today = effects_of([nominate(1, 4), remove(6)])[-1]
    assert today.cancelled == 1 and [d.how.value for d in today.left] == ["removed"]
    again = effects_of([nominate(1, 4), remove(6), remove(8)])[-1]
    assert again.cancelled is None


def test_the_event_that_ends_the_game_tells_the_winner():
    events = [nominate(1, 7), nominate(2, 6), {"type": "vote", "counts": [6, 4]}]
    events += [NIGHT, miss((5, 9)), DAY, nominate(1, 9), nominate(2, 6)]
    events += [{"type": "vote", "counts": [6, 3]}, NIGHT, miss((5,)), DAY]
    events += [nominate(1, 5), nominate(2, 6), {"type": "vote", "counts": [6, 2]}]
    effects = effects_of(events)
    assert [e.winner for e in effects if e.winner] == [Winner.RED]
    assert effects[-1].winner is Winner.RED


# --- voting state ---------------------------------------------------------------


def test_the_voting_state_follows_a_tie_to_the_lift():
    events = [nominate(1, 4), nominate(2, 6), {"type": "vote", "counts": [5, 5]}]
    state = state_of(events)
    assert state.voting.is_revote_due() and state.voting.candidates == (4, 6)
    assert EventType.NIGHT not in state.expects()
    state = state_of([*events, {"type": "vote", "counts": [5, 5]}])
    assert state.voting.is_lift_due()
    assert state.expects()[0] is EventType.LIFT


def test_a_tie_gives_the_tied_players_thirty_seconds_each_before_the_revote():
    state = state_of(
        [nominate(1, 4), nominate(2, 6), nominate(3, 8), {"type": "vote", "counts": [4, 2, 4]}]
    )
    assert [(s.seat, s.kind, s.seconds) for s in state.defence_order()] == [
        (4, SpeechKind.DEFENCE, 30),
        (8, SpeechKind.DEFENCE, 30),
    ]
    assert state_of([nominate(1, 4)]).defence_order() == ()


def test_a_removal_cancels_the_voting_and_the_state_says_so():
    state = state_of([nominate(1, 4), {"type": "remove", "seat": 6, "reason": "bribe"}])
    assert state.voting.is_cancelled()
    assert EventType.NOMINATE not in state.expects()
    assert state.cancelled_days == frozenset({1})


def test_day_one_online_has_no_voting():
    state = state_of([], table="fiim-online")
    assert state.voting.status is VotingStatus.NONE
    assert EventType.NOMINATE not in state.expects()


# --- a console's game -----------------------------------------------------------


def test_a_refused_event_leaves_the_game_as_it_was():
    game = Game(parse_log(a_log([nominate(1, 4), nominate(2, 6)])))
    before = game.state
    with pytest.raises(GameLogError) as refused:
        game.apply(parse_event({"type": "vote", "counts": [5, 4]}))
    assert (
        str(refused.value.problems[0])
        == "event 3 (vote): counts sum to 9, but 10 players are alive"
    )
    assert game.state == before
    assert len(game.log.events) == 2


def test_check_tells_the_problem_without_applying():
    game = Game(parse_log(a_log([])))
    problem = game.check(parse_event({"type": "night"}))
    assert problem is None
    problem = game.check(parse_event({"type": "day"}))
    assert problem is not None and problem.code == "game.night_only"
    assert problem.event == 1 and problem.event_type == "day"
    assert game.state.events == 0


def test_append_reads_and_applies_an_event_in_its_log_form():
    game = Game(parse_log(a_log([])))
    game.append({"type": "nominate", "by": 1, "seat": 4, "id": "a1"})
    assert game.log.events[0].extra == {"id": "a1"}
    with pytest.raises(GameLogError) as refused:
        game.append({"type": "nominate", "by": 1})
    assert str(refused.value) == "event 2 (nominate): seat is missing"
    assert len(game.log.events) == 1


def test_a_pause_changes_nothing_but_the_count_of_events():
    before = state_of([NIGHT, kill(2), DAY])
    after = state_of(
        [NIGHT, kill(2), DAY, {"type": "pause", "seat": 2, "minutes": 10, "reason": "power cut"}]
    )
    assert replay_json(after) == replay_json(before)
    assert after.events == before.events + 1


def test_a_log_of_more_events_than_any_game_has_is_refused():
    pause = {"type": "pause", "seat": 1, "minutes": 1, "reason": "x"}
    with pytest.raises(GameLogError) as refused:
        parse_log(a_log([pause] * 2001))
    assert str(refused.value) == "field events: a game log holds at most 2000 events, not 2001"
    game = Game(parse_log(a_log([pause] * 2000)))
    with pytest.raises(GameLogError) as refused:
        game.append(pause)
    assert refused.value.problems[0].code == "log.too_many_events"


def test_undo_drops_the_last_event():
    game = Game(parse_log(a_log([nominate(1, 4)])))
    game.apply(parse_event({"type": "nominate", "by": 2, "seat": 6}))
    assert game.state.voting.nominated() == (4, 6)
    game.undo()
    assert game.state == replay(parse_log(a_log([nominate(1, 4)])))


def test_an_event_keeps_its_own_keys_such_as_an_id():
    event = parse_event({"type": "foul", "seat": 3, "id": "e-17", "at": "12:01"})
    assert event.to_json() == {"id": "e-17", "at": "12:01", "type": "foul", "seat": 3}


def test_a_log_written_back_reads_the_same():
    log = parse_log(
        a_log([nominate(1, 4), foul(2), NIGHT, kill(3), DAY], id="Q1", date="2026-01-10")
    )
    again = parse_log(json.loads(json.dumps(log.to_json())))
    assert again == log
    assert replay(again) == replay(log)


# --- spectators -----------------------------------------------------------------


def test_a_spectator_sees_no_role_and_no_night_secret_before_the_end():
    events = [
        NIGHT,
        kill(3),
        {"type": "don_check", "seat": 3},
        {"type": "sheriff_check", "seat": 5},
    ]
    for upto in range(len(events) + 1):
        text = json.dumps(public_json(replay(parse_log(a_log(events)), upto=upto)))
        for secret in (
            '"sheriff"',
            '"don"',
            '"black"',
            "roles",
            '"shots":',
            '"killed"',
            "don_check",
            "sheriff_check",
        ):
            assert secret not in text, (upto, secret)


def test_a_spectator_cannot_count_the_checks_of_a_night():
    both = state_of(
        [NIGHT, miss(), {"type": "don_check", "seat": 1}, {"type": "sheriff_check", "seat": 2}]
    )
    voted = [nominate(1, 3), nominate(2, 4), {"type": "vote", "counts": [6, 4]}]
    one = state_of([*voted, NIGHT, miss(), {"type": "don_check", "seat": 1}])
    assert public_json(both)["events"] == 2
    assert public_json(one)["events"] == 5
    assert judge_json(both)["events"] == 4


def test_a_spectator_sees_the_roles_once_the_game_is_over():
    state = state_of([{"type": "defeat", "team": "black", "reason": "peeking"}])
    public = public_json(state)
    assert public["winner"] == "red"
    assert public["protocol"]["seats"][4]["role"] == "don"


def test_a_finished_game_kept_secret_tells_the_winner_and_no_role():
    night = [NIGHT, kill(3), {"type": "don_check", "seat": 3}, {"type": "sheriff_check", "seat": 5}]
    defeat = {"type": "defeat", "team": "black", "reason": "peeking"}
    state = state_of([*night, {"type": "day"}, defeat])
    secret = public_json(state, reveal=False)
    assert secret["finished"] is True and secret["winner"] == "red"
    text = json.dumps(secret)
    for word in ('"sheriff"', '"don"', '"black"', "protocol", "nights", "don_check"):
        assert word not in text, word
    assert secret["events"] == public_json(state)["events"] - 2


def test_the_judge_sees_everything():
    judge = judge_json(state_of([NIGHT, kill(3)]))
    assert judge["roles"][2] == "sheriff"
    assert judge["nights"][0]["killed"] == 3


# --- settings and messages ------------------------------------------------------


def test_the_table_settings_are_registered_data():
    assert get_table_settings("fiim") is FIIM_TABLE
    assert FIIM_TABLE.day1_voting and not FIIM_ONLINE_TABLE.day1_voting
    assert not FIIM_TABLE.lift_three_at_nine and not FIIM_ONLINE_TABLE.lift_three_at_nine
    assert (FIIM_ONLINE_TABLE.timeout_minutes, FIIM_ONLINE_TABLE.long_timeout_minutes) == (4, 10)
    assert (FIIM_TABLE.speech_seconds, FIIM_TABLE.defence_seconds) == (60, 30)
    assert (FIIM_TABLE.last_word_seconds, FIIM_TABLE.zero_night_seconds) == (60, 60)
    with pytest.raises(KeyError, match="fiim-online"):
        get_table_settings("club")


def test_a_log_overrides_a_setting_by_name():
    log = parse_log(a_log([], table="fiim-online", settings={"day1_voting": True}))
    assert log.table.day1_voting and log.table.online
    with pytest.raises(GameLogError) as refused:
        parse_log(a_log([], settings={"beacons": True, "day1_voting": "yes"}))
    codes = [p.code for p in refused.value.problems]
    assert codes == ["log.setting_unknown", "log.field_type"]


def test_every_problem_code_has_an_english_text_that_formats():
    sample = {
        "value": "x",
        "known": "a",
        "name": "n",
        "path": "p",
        "error": "e",
        "seat": 1,
        "nickname": "n",
        "role": "don",
        "field": "seat",
        "expected": 2,
        "given": 3,
        "night": 1,
        "day": 1,
        "by": 2,
        "count": 1,
        "seats": "1, 2",
        "total": 8,
        "alive": 9,
        "max": 5,
    }
    for code, text in MESSAGES.items():
        assert "{" not in text, code
        assert text % sample, code

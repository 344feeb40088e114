"""A protocol held against the console's log of its game: each difference is named in
words before the judge signs, beside the block it concerns, and a vote that counts more
votes than the living players the log knew is refused (the protocol alone cannot know
every night kill)."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from mafiatab.console import services as console
from mafiatab.games import log_check
from mafiatab.games.conversion import game_data
from mafiatab.games.forms import raw_from_data
from mafiatab.games.models import GameStatus
from mafiatab.games.selectors import version_changes
from mafiatab.games.services import (
    ProtocolInvalid,
    protocol_confirm,
    protocol_return,
    protocol_save,
)
from mafiatab.messages import problem_text

from . import test_games_fixtures as fx

two_tables = fx.two_tables

pytestmark = pytest.mark.django_db

ROLES = {"sheriff": 3, "don": 7, "black": [5, 9]}
#: Red wins on day 3; the second night kills seat 3, which the protocol does not record:
#: the log knows 6 living players at the day-3 vote, the protocol alone counts 7.
GAME = [
    {"type": "nominate", "by": 1, "seat": 5},
    {"type": "nominate", "by": 2, "seat": 9},
    {"type": "vote", "counts": [6, 4]},
    {"type": "night"},
    {"type": "shots", "by": {"7": 1, "9": 1}},
    {"type": "day"},
    {"type": "best_move", "seats": [7, 9, 2]},
    {"type": "nominate", "by": 3, "seat": 9},
    {"type": "nominate", "by": 4, "seat": 7},
    {"type": "vote", "counts": [5, 3]},
    {"type": "night"},
    {"type": "shots", "by": {"7": 3}},
    {"type": "day"},
    {"type": "nominate", "by": 2, "seat": 7},
    {"type": "nominate", "by": 6, "seat": 4},
    {"type": "vote", "counts": [4, 2]},
]


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    """An offline FIIM tournament (day 1 has a voting)."""
    return make_tournament(ruleset="fiim", platform="")


@pytest.fixture
def played(two_tables: dict[str, Any]) -> dict[str, Any]:
    game, judge = two_tables["game1"], two_tables["judge"]
    log = console.log_start(game=game, roles=ROLES, by=judge)
    for event in GAME:
        console.event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=judge)
    console.log_finish(log=log, by=judge)
    game.refresh_from_db()
    return two_tables | {"game": game}


def _form(game: Any, action: str, **changes: Any) -> dict[str, Any]:
    data = game_data(game) | {"date": "2026-03-01"} | changes
    raw = raw_from_data(data)
    return {k: v for k, v in raw.items() if v not in ("", [])} | {
        "base_version": str(game.version),
        "action": action,
    }


def _url(game: Any) -> str:
    return reverse("games:protocol", args=[game.tournament.slug, game.pk])


def _voting_with_day3(votes: list[int]) -> list[dict[str, Any]]:
    return [
        {"day": 1, "nominees": [5, 9], "votes": [6, 4], "nominated_by": [1, 2]},
        {"day": 2, "nominees": [9, 7], "votes": [5, 3], "nominated_by": [3, 4]},
        {"day": 3, "nominees": [7, 4], "votes": votes, "nominated_by": [2, 6]},
    ]


def test_the_log_makes_the_reference_protocol_and_the_form_says_it_agrees(client, played):
    game = played["game"]
    assert log_check.log_protocol(game) is not None
    client.force_login(played["judge"])
    page = client.get(_url(game)).content.decode()
    assert 'data-testid="log-same"' in page and 'data-testid="log-differences"' not in page


def test_more_votes_than_the_living_players_the_log_knew_cannot_be_signed(client, played):
    game = played["game"]
    client.force_login(played["judge"])
    post = _form(game, "submit", voting=_voting_with_day3([4, 3]))
    with translation.override("ru"):
        answer = client.post(_url(game), post, HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 422
    page = answer.content.decode()
    assert (
        "день 3: 7 голосов, а в журнале пульта при этом голосовании живых игроков только 6" in page
    )
    assert "день 3: в журнале пульта голоса 4 2, в протоколе — 4 3" in page
    game.refresh_from_db()
    assert game.status == GameStatus.DRAFT
    # every door refuses it, not the form alone
    data = game_data(game) | {"date": "2026-03-01", "voting": _voting_with_day3([4, 3])}
    with pytest.raises(ProtocolInvalid) as refused:
        protocol_save(
            game=game, data=data, by=played["judge"], base_version=game.version, submit=True
        )
    assert "log.votes_over_alive" in [p.code for p in refused.value.problems]


def test_a_difference_the_rules_allow_is_a_warning_beside_its_block_and_signing_goes_on(
    client, played
):
    game = played["game"]
    client.force_login(played["judge"])
    seats = game_data(game)["seats"]
    seats[3] = seats[3] | {"fouls": 2}
    post = _form(game, "check", voting=_voting_with_day3([5, 1]), seats=seats)
    page = client.post(_url(game), post).content.decode()
    assert 'data-testid="log-differences"' in page
    assert "2 differences from the console's log of this game" in page
    assert "day 3: the console&#x27;s log has the votes 4 2, the protocol 5 1" in page
    assert "Seat 4, Fouls</a>: the console&#x27;s log has 0, the protocol 2" in page
    assert 'data-testid="log-warning"' in page
    data = game_data(game) | {"date": "2026-03-01", "voting": _voting_with_day3([5, 1])}
    protocol_save(game=game, data=data, by=played["judge"], base_version=game.version, submit=True)
    game.refresh_from_db()
    assert game.status == GameStatus.SUBMITTED


def test_a_game_played_without_the_console_has_no_reference(client, two_tables):
    game = two_tables["game1"]
    assert log_check.log_protocol(game) is None
    client.force_login(two_tables["judge"])
    page = client.get(_url(game)).content.decode()
    assert 'data-testid="log-same"' not in page


#: Seat 4 is removed on day 1 (the day's vote is cancelled); red wins on day 4.
REMOVED_ON_DAY_1 = [
    {"type": "remove", "seat": 4, "reason": "insult", "fined": True},
    {"type": "night"},
    {"type": "shots", "by": {"5": 1, "7": 1, "9": 1}},
    {"type": "day"},
    {"type": "nominate", "by": 3, "seat": 5},
    {"type": "nominate", "by": 6, "seat": 9},
    {"type": "vote", "counts": [5, 3]},
    {"type": "night"},
    {"type": "shots", "by": {"7": 2, "9": 2}},
    {"type": "day"},
    {"type": "nominate", "by": 3, "seat": 9},
    {"type": "nominate", "by": 6, "seat": 7},
    {"type": "vote", "counts": [4, 2]},
    {"type": "night"},
    {"type": "shots", "by": {"7": 3}},
    {"type": "day"},
    {"type": "nominate", "by": 6, "seat": 7},
    {"type": "night"},
]


def test_the_best_move_offers_only_the_seats_in_the_game_at_the_first_night(client, two_tables):
    game, judge = two_tables["game1"], two_tables["judge"]
    log = console.log_start(game=game, roles=ROLES, by=judge)
    for event in REMOVED_ON_DAY_1:
        console.event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=judge)
    console.log_finish(log=log, by=judge)
    game.refresh_from_db()
    assert game.winner == "red"
    assert log_check.first_night_seats(game) == [1, 2, 3, 5, 6, 7, 8, 9, 10]
    client.force_login(judge)
    page = client.get(_url(game)).content.decode()
    for i in (1, 2, 3):
        select = re.search(rf'<select name="bm_{i}">(.*?)</select>', page, re.S)[1]
        offered = re.findall(r'<option value="(\d+)"', select)
        assert offered == ["1", "2", "3", "5", "6", "7", "8", "9", "10"], offered
    # the first-killed seat and the other seat pickers still offer every seat
    killed = re.search(r'<select name="first_killed">(.*?)</select>', page, re.S)[1]
    assert '<option value="4"' in killed


def _submitted(played: dict[str, Any]) -> Any:
    """The played game signed once as the log made it."""
    game = played["game"]
    data = game_data(game) | {"date": "2026-03-01"}
    protocol_save(game=game, data=data, by=played["judge"], base_version=game.version, submit=True)
    game.refresh_from_db()
    assert game.status == GameStatus.SUBMITTED
    return game


def test_a_winner_other_than_the_logs_result_is_refused_at_every_door(client, played):
    game = _submitted(played)
    client.force_login(played["judge"])
    with translation.override("ru"):
        answer = client.post(
            _url(game), _form(game, "submit", winner="black"), HTTP_ACCEPT_LANGUAGE="ru"
        )
    assert answer.status_code == 422
    page = answer.content.decode()
    assert "в журнале пульта игра закончилась так: победа красной команды" in page
    assert "в протоколе — победа чёрной команды" in page
    assert 'data-testid="log-same"' not in page
    game.refresh_from_db()
    assert game.winner == "red"
    data = game_data(game) | {"winner": "black"}
    with pytest.raises(ProtocolInvalid) as refused:
        protocol_save(game=game, data=data, by=played["judge"], base_version=game.version)
    assert "log.winner" in [p.code for p in refused.value.problems]
    game.refresh_from_db()
    assert game.winner == "red"


def test_roles_nicknames_and_nominators_other_than_the_logs_are_listed(client, played):
    game = played["game"]
    client.force_login(played["judge"])
    data = game_data(game)
    seats = data["seats"]
    seats[1], seats[2] = seats[1] | {"role": "sheriff"}, seats[2] | {"role": "red"}
    stranger = fx.NICKS_2[0]
    seats[3] = seats[3] | {"player": stranger}
    voting = data["voting"]
    voting[0] = voting[0] | {"nominated_by": [2, 1]}
    post = _form(game, "check", seats=seats, voting=voting)
    with translation.override("ru"):
        page = client.post(_url(game), post, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="log-same"' not in page
    assert "в журнале пульта у этого места роль К, в протоколе — Ш" in page
    assert "в журнале пульта у этого места роль Ш, в протоколе — К" in page
    assert f"в журнале пульта на этом месте {fx.NICKS_1[3]}, в протоколе — {stranger}" in page
    assert "день 1: в журнале пульта выставляли 1 2, в протоколе — 2 1" in page
    codes = [p.code for p in log_check.differences(data, log_check.log_protocol(game))]
    assert codes.count("log.role") == 2 and "log.player" in codes
    assert "log.block_nominated_by" in codes


def _voting_with_day1(votes: list[int]) -> list[dict[str, Any]]:
    day1 = {"day": 1, "nominees": [5, 9], "votes": votes, "nominated_by": [1, 2]}
    return [day1, *_voting_with_day3([4, 2])[1:]]


def test_fewer_votes_than_the_living_players_the_log_knew_cannot_be_signed(client, played):
    """Every living player votes (game-rules.md): with 10 alive, 6 and 3 is one vote short."""
    game = played["game"]
    client.force_login(played["judge"])
    post = _form(game, "submit", voting=_voting_with_day1([6, 3]))
    with translation.override("ru"):
        answer = client.post(_url(game), post, HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 422
    page = answer.content.decode()
    assert "день 1: 9 голосов, а в журнале пульта при этом голосовании живых игроков 10" in page
    game.refresh_from_db()
    assert game.status == GameStatus.DRAFT
    data = game_data(game) | {"date": "2026-03-01", "voting": _voting_with_day1([6, 3])}
    with pytest.raises(ProtocolInvalid) as refused:
        protocol_save(
            game=game, data=data, by=played["judge"], base_version=game.version, submit=True
        )
    assert "log.votes_under_alive" in [p.code for p in refused.value.problems]


def test_a_protocol_without_its_judge_is_warned_by_the_judge_field(client, played):
    """The tournament file leaves `judge` optional: a warning, not a refusal."""
    game = played["game"]
    client.force_login(played["judge"])
    post = _form(game, "check", judge="")
    post.pop("judge", None)
    with translation.override("ru"):
        page = client.post(_url(game), post, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="form-warnings"' in page
    assert "Судья</a>: судья стола не указан: впишите его перед подписью" in page
    post = _form(game, "check", judge="Главный Иван")
    page = client.post(_url(game), post).content.decode()
    assert 'data-testid="form-warnings"' not in page


def test_a_difference_names_its_part_once(client, played):
    game = played["game"]
    client.force_login(played["judge"])
    post = _form(game, "check", first_killed=2, best_move=[7, 9, 3])
    with translation.override("ru"):
        page = client.post(_url(game), post, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Убит в первую ночь</a>: в журнале пульта 1, в протоколе — 2" in page
    assert "Лучший ход</a>: в журнале пульта 7 9 2, в протоколе — 7 9 3" in page
    assert "убит в первую ночь: в журнале" not in page
    assert "лучший ход: в журнале" not in page
    # beside the best move's cell (which holds the first-killed seat too) each says its part
    assert '<p class="warning" data-testid="log-warning">Убит в первую ночь: в журнале' in page


def _removed_on_day_1(two_tables: dict[str, Any], reason: str = "4 fouls") -> Any:
    game, judge = two_tables["game1"], two_tables["judge"]
    log = console.log_start(game=game, roles=ROLES, by=judge)
    events = [REMOVED_ON_DAY_1[0] | {"reason": reason}, *REMOVED_ON_DAY_1[1:]]
    for event in events:
        console.event_append(log=log, event=event, client_id=uuid.uuid4(), after=None, by=judge)
    console.log_finish(log=log, by=judge)
    game.refresh_from_db()
    return game


def test_a_removal_with_another_reason_than_the_logs_is_named_in_the_readers_words(
    client, two_tables
):
    game = _removed_on_day_1(two_tables)
    client.force_login(two_tables["judge"])
    removal = game_data(game)["disqualified"][0]
    post = _form(game, "check", disqualified=[removal | {"reason": "оскорбление"}])
    with translation.override("ru"):
        page = client.post(_url(game), post, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="log-same"' not in page
    assert (
        "Место 4, Удаления (8.2.4)</a>: в журнале пульта причина удаления — «4 фола», "
        "в протоколе — «оскорбление»" in page
    )
    with translation.override("en"):
        page = client.post(_url(game), post).content.decode()
    assert "the console&#x27;s log has the removal for “4 fouls”, the protocol for" in page
    # the fourth foul's words in the reader's language are the log's own reason
    post = _form(game, "check", disqualified=[removal | {"reason": "4 фола"}])
    with translation.override("ru"):
        page = client.post(_url(game), post, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="log-same"' in page


def test_each_removal_is_held_against_the_logs_seat_fine_and_online_violation():
    logged = {"disqualified": [{"seat": 4, "reason": "4 fouls", "online": False, "fined": True}]}

    def codes(*removals: dict[str, Any]) -> list[str]:
        return [p.code for p in log_check.differences({"disqualified": list(removals)}, logged)]

    same = logged["disqualified"][0]
    assert codes(same) == []
    assert codes(same | {"fined": False}) == ["log.removal_waived"]
    assert codes(same | {"online": True}) == ["log.removal_online"]
    assert codes(same | {"seat": 5}) == ["log.removal_missing", "log.removal_extra"]
    assert codes() == ["log.removal_missing"]
    with translation.override("ru"):
        texts = [
            problem_text(p)
            for p in log_check.differences({"disqualified": [same | {"fined": False}]}, logged)
        ]
        missing = problem_text(log_check.differences({}, logged)[0])
    assert texts == ["в журнале пульта удаление со штрафом, в протоколе — без штрафа"]
    assert missing == "в журнале пульта этот игрок удалён (4 фола), в протоколе такого удаления нет"


def test_a_revote_the_log_does_not_have_is_a_difference_and_the_box_never_says_it_agrees(
    client, played
):
    game = played["game"]
    client.force_login(played["judge"])
    voting = game_data(game)["voting"]
    voting[0] = voting[0] | {"revote": True}
    post = _form(game, "check", voting=voting)
    with translation.override("ru"):
        page = client.post(_url(game), post, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "день 1: в журнале пульта это голосование дня, в протоколе — переголосование" in page
    assert 'data-testid="log-same"' not in page


def test_no_difference_from_the_log_is_not_said_beside_a_problem_of_a_part_the_log_has(
    client, played
):
    game = played["game"]
    client.force_login(played["judge"])
    post = _form(game, "check")
    post.pop("winner")  # a problem, but no difference from the log's result
    page = client.post(_url(game), post).content.decode()
    assert "choose the winning team" in page
    assert 'data-testid="log-same"' not in page
    # a problem of a part the log does not hold (the date) leaves it said
    post = _form(game, "check")
    post.pop("date")
    page = client.post(_url(game), post).content.decode()
    assert 'data-testid="log-same"' in page


def test_a_confirmed_protocol_changed_without_a_reason_says_so_beside_the_reason_field(
    client, played
):
    game = _submitted(played)
    protocol_confirm(game=game, by=played["chief"])
    game.refresh_from_db()
    client.force_login(played["chief"])
    page = client.get(_url(game)).content.decode()
    # the browser's own validation would stop the live check until a reason is written
    assert re.search(r'<form [^>]*id="protocol-form"[^>]*novalidate', page)
    with translation.override("ru"):
        answer = client.post(
            _url(game), _form(game, "save", judge="Главный Иван"), HTTP_ACCEPT_LANGUAGE="ru"
        )
    assert answer.status_code == 422
    beside = re.search(r'data-testid="reason-error">(.*?)</div>', answer.content.decode(), re.S)
    assert beside and "Укажите, почему меняется утверждённый протокол" in beside[1]


def test_a_returned_protocol_says_who_returned_it_when_and_why_while_it_is_a_draft(client, played):
    game = _submitted(played)
    protocol_return(game=game, by=played["chief"], reason="исправьте фолы места 4")
    game.refresh_from_db()
    client.force_login(played["judge"])
    with translation.override("ru"):
        page = client.get(_url(game), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    shown = re.search(r'data-testid="returned">(.*?)</div>', page, re.S)
    assert shown, "the return is not shown"
    assert "Протокол возвращён судье стола (Chief" in shown[1]
    assert "Что исправить: исправьте фолы места 4" in shown[1]
    detail = reverse("games:detail", args=[game.tournament.slug, game.pk])
    with translation.override("ru"):
        page = client.get(detail, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Что исправить: исправьте фолы места 4" in page
    client.force_login(played["player"])  # not for every reader of the game's page
    assert 'data-testid="returned"' not in client.get(detail).content.decode()
    client.force_login(played["judge"])
    # saved again as a draft it still says so; signed again it does not
    data = game_data(game) | {"date": "2026-03-01", "judge": "Главный Иван"}
    protocol_save(game=game, data=data, by=played["judge"], base_version=game.version)
    game.refresh_from_db()
    assert 'data-testid="returned"' in client.get(_url(game)).content.decode()
    protocol_save(game=game, data=data, by=played["judge"], base_version=game.version, submit=True)
    game.refresh_from_db()
    assert 'data-testid="returned"' not in client.get(_url(game)).content.decode()


def test_the_protocol_history_names_each_removal_by_its_seat_and_its_reason(client, two_tables):
    game = _removed_on_day_1(two_tables)
    client.force_login(two_tables["chief"])
    url = reverse("games:history", args=[game.tournament.slug, game.pk])
    with translation.override("ru"):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<td>удаления</td><td>—</td><td>место 4 (4 фола)</td>" in page
    with translation.override("en"):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<td>removals</td><td>—</td><td>seat 4 (4 fouls)</td>" in page
    removal = {"seat": 6, "reason": "ALT+TAB", "online": True, "fined": False}
    with translation.override("ru"):
        (change,) = version_changes({}, {"disqualified": [removal]})
    assert change.after == "место 6 (ALT+TAB, нарушение дополнения для онлайн-турниров, без штрафа)"


def test_a_message_beside_its_field_is_a_sentence_with_its_final_full_stop(client, played):
    game = _submitted(played)
    client.force_login(played["judge"])
    with translation.override("ru"):
        answer = client.post(
            _url(game), _form(game, "check", winner="black"), HTTP_ACCEPT_LANGUAGE="ru"
        )
    beside = re.search(r'id="pb-winner"[^>]*>(.*?)</div>', answer.content.decode(), re.S)[1]
    assert (
        '<p class="error" role="alert">В журнале пульта игра закончилась так: победа красной '
        "команды, а в протоколе — победа чёрной команды; результат, который решил журнал, "
        "нельзя подписать иначе.</p>" in beside
    ), beside

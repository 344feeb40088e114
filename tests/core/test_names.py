"""The identity rule for nicknames and the limits on names."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from mafiatab.core.names import (
    MAX_NAME,
    MAX_NICKNAME,
    NAME_TOO_LONG,
    NICKNAME_BIDI,
    NICKNAME_CONTROL,
    NICKNAME_EMPTY,
    NICKNAME_TOO_LONG,
    is_valid_nickname,
    name_problems,
    nickname_key,
    nickname_problems,
    normalize_nickname,
)


def test_cyrillic_case_variants_are_one_player():
    assert nickname_key("Кэп") == nickname_key("кэп") == nickname_key("КЭП")


def test_latin_case_variants_are_one_player():
    assert nickname_key("Shakhmatist") == nickname_key("SHAKHMATIST")


def test_full_casefold_makes_sharp_s_equal_double_s():
    assert nickname_key("Straße") == nickname_key("STRASSE")


def test_outer_whitespace_is_not_part_of_the_identity():
    assert nickname_key("  Кэп\t") == nickname_key("кэп")


def test_composed_and_decomposed_spellings_are_one_player():
    composed = "Ёжик"
    decomposed = unicodedata.normalize("NFD", composed)
    assert composed != decomposed
    assert nickname_key(composed) == nickname_key(decomposed)


def test_different_nicknames_keep_different_keys():
    assert nickname_key("Кэп") != nickname_key("Кэпа")
    assert nickname_key("Мария Орлова") != nickname_key("МарияОрлова")


def test_normalize_keeps_case_and_strips_whitespace():
    assert normalize_nickname("  Кэп ") == "Кэп"


def test_plain_nickname_has_no_problems():
    assert nickname_problems("Мария Орлова") == []
    assert is_valid_nickname("Alpha")


def test_empty_or_blank_nickname_is_refused():
    assert nickname_problems("") == [NICKNAME_EMPTY]
    assert nickname_problems("   ") == [NICKNAME_EMPTY]


def test_nickname_of_the_limit_passes_and_one_more_is_refused():
    assert nickname_problems("x" * MAX_NICKNAME) == []
    assert nickname_problems("x" * (MAX_NICKNAME + 1)) == [NICKNAME_TOO_LONG]
    assert MAX_NICKNAME == 64


def test_control_characters_are_refused():
    assert nickname_problems("Kap\x00") == [NICKNAME_CONTROL]
    assert nickname_problems("Ka\np") == [NICKNAME_CONTROL]
    assert nickname_problems("Ka\x85p") == [NICKNAME_CONTROL]


def test_bidirectional_override_characters_are_refused():
    for char in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f":
        assert nickname_problems(f"Kap{char}x") == [NICKNAME_BIDI], hex(ord(char))


def test_long_nickname_with_override_reports_both():
    assert nickname_problems("\u202e" + "x" * 70) == [NICKNAME_TOO_LONG, NICKNAME_BIDI]


def test_tournament_name_is_bounded_at_200():
    assert MAX_NAME == 200
    assert name_problems("x" * 200) == []
    assert name_problems("x" * 201) == [NAME_TOO_LONG]


@given(st.text(max_size=20))
def test_key_is_idempotent_and_ignores_outer_whitespace(name):
    key = nickname_key(name)
    assert nickname_key(key) == key
    assert nickname_key(f" {name}\n") == key

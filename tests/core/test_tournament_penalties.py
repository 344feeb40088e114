"""The points of a tournament penalty are the regulation's rule."""

from fractions import Fraction

from mafiatab.core.regulations import get_regulation


def test_offline_regulation_gives_only_lateness():
    assert get_regulation("fiim").tournament_penalties() == {"lateness": Fraction(-1, 2)}


def test_online_regulation_adds_the_lobby_violations_in_order():
    kinds = get_regulation("fiim-online").tournament_penalties()
    assert list(kinds) == ["lateness", "lobby_warning", "lobby_fine", "lobby_removal"]
    assert kinds["lobby_fine"] == Fraction(-1, 2)
    assert kinds["lobby_warning"] == kinds["lobby_removal"] == 0

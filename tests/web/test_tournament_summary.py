"""The standings summary on the tournament page adds up: Total = Main + Extra + Penalties
for every row, a penalised player's tournament-level penalties in their own column."""

from __future__ import annotations

import html
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation

from mafiatab.standings.services import tournament_standings

pytestmark = pytest.mark.django_db


def _number(text: str) -> Decimal:
    return Decimal(html.unescape(text).strip().replace("−", "-").replace(",", "."))


def _summary(page: str) -> tuple[list[str], list[list[str]]]:
    table = page[page.index('data-testid="standings"') :]
    table = table[: table.index("</table>")]
    head = [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<th[^>]*>(.*?)</th>", table)]
    body = table[table.index("<tbody>") :]
    rows = [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]
    return head, rows


@pytest.mark.parametrize(("lang", "word"), [("en", "Penalties"), ("ru", "Штрафы")])
def test_the_tournament_summary_total_is_main_plus_extra_plus_penalties(
    client, demo_imported, lang, word
):
    with translation.override(lang):
        url = reverse("tournaments:detail", args=[demo_imported.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    head, rows = _summary(page)
    assert word in head
    total, main, extra, fined = (head.index(h) for h in [*head[2:5], word])
    standings = {r.player: r for r in tournament_standings(demo_imported).rows}
    penalised = [name for name, r in standings.items() if r.penalties]
    assert penalised  # the demo fines players for lateness and in the lobby
    assert len(rows) == len(standings)
    for row in rows:
        player = row[1]
        expected = standings[player].penalties
        assert _number(row[fined]) == round(Decimal(expected.numerator) / expected.denominator, 2)
        gap = _number(row[total]) - (_number(row[main]) + _number(row[extra]) + _number(row[fined]))
        assert abs(gap) <= Decimal("0.02"), (player, row)
    shown = {row[1]: row for row in rows}
    assert all(_number(shown[name][fined]) < 0 for name in penalised)

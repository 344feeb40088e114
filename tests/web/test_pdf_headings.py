"""Printed column headings break between words only, never inside a word ("Penaltie/s",
"Основны/е"), and fit their columns, in Russian and in English: checked on the laid-out
pages of the standings, the protocol and the blank protocols."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from mafiatab.games.models import Game
from mafiatab.printables.pdf import Renderer

pytestmark = pytest.mark.django_db


@pytest.fixture
def laid_out(monkeypatch: Any) -> list[Any]:
    """The WeasyPrint documents the views lay out, as they are laid out."""
    documents: list[Any] = []
    document = Renderer.document

    def keep(self: Renderer, template: str, context: dict[str, Any]) -> Any:
        result = document(self, template, context)
        documents.append(result)
        return result

    monkeypatch.setattr(Renderer, "document", keep)
    return documents


def _descendants(box: Any) -> Any:
    yield box
    for child in getattr(box, "children", []):
        yield from _descendants(child)


def headings(document: Any) -> list[tuple[list[str], float]]:
    """Every heading cell: its lines and how far its text reaches past the cell's content
    (negative: it fits)."""
    found = []
    for page in document.pages:
        for box in _descendants(page._page_box):
            if getattr(box, "element_tag", None) != "th" or type(box).__name__ != "TableCellBox":
                continue
            lines = [b for b in _descendants(box) if type(b).__name__ == "LineBox"]
            texts = [
                "".join(t.text for t in _descendants(line) if type(t).__name__ == "TextBox")
                for line in lines
            ]
            left = box.content_box_x()
            right = left + box.width
            past = [
                max(t.position_x + t.width - right, left - t.position_x)
                for t in _descendants(box)
                if type(t).__name__ == "TextBox"
            ]
            found.append(([t.strip() for t in texts], max(past, default=0)))
    return found


def _assert_whole_words(documents: list[Any], source_words: set[str]) -> None:
    assert documents
    checked = 0
    for document in documents:
        for lines, past in headings(document):
            for line in lines:
                for word in line.split():
                    assert word in source_words, (word, lines)
            assert past <= 0.5, (lines, past)
            checked += 1
    assert checked


def _source_words(page: bytes) -> set[str]:
    import html
    import re

    cells = re.findall(rb"<th[^>]*>(.*?)</th>", page, re.S)
    return {w for c in cells for w in html.unescape(re.sub(r"<[^>]+>", " ", c.decode())).split()}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_standings_headings_break_between_words(client, demo_imported, laid_out, lang, monkeypatch):
    pages: list[bytes] = []
    _keep_html(monkeypatch, pages)
    url = reverse("printables:standings_pdf", args=[demo_imported.slug])
    assert client.get(url, {"lang": lang}).status_code == 200
    _assert_whole_words(laid_out, _source_words(b"".join(pages)))


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_protocol_headings_break_between_words(client, demo_imported, laid_out, lang, monkeypatch):
    pages: list[bytes] = []
    _keep_html(monkeypatch, pages)
    game = Game.objects.filter(tournament=demo_imported).order_by("position").first()
    slug = demo_imported.slug
    for url in (
        reverse("printables:protocol", args=[slug, game.pk]),
        reverse("printables:blank_protocols", args=[slug]),
    ):
        client.get(url, {"lang": lang})
    _assert_whole_words(laid_out, _source_words(b"".join(pages)))


def _keep_html(monkeypatch: Any, pages: list[bytes]) -> None:
    from mafiatab.printables import pdf

    render = pdf.render_to_string

    def keep(template: str, context: dict[str, Any]) -> str:
        text = render(template, context)
        pages.append(text.encode())
        return text

    monkeypatch.setattr(pdf, "render_to_string", keep)

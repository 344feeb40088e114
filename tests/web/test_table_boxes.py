"""Every data table of the site's pages sits in its own scrolling box (.table-scroll),
so that on a phone a wide table scrolls inside the box and never widens the page;
the browser walk sees the tables of its seeded data, this sees every template."""

from __future__ import annotations

import re
from pathlib import Path

import mafiatab

PACKAGE = Path(mafiatab.__file__).parent
#: A data table, and the tag just before it.
TABLE = re.compile(r"<table\b[^>]*\bclass=\"grid\b")
LAST_TAG = re.compile(r"<(?!/)[a-z][^>]*>\s*$")


def _page_templates() -> list[Path]:
    """The web pages' templates (the printables are PDF documents, not pages)."""
    return [p for p in PACKAGE.rglob("*.html") if "printables" not in p.parts]


def test_every_data_table_of_a_page_is_inside_a_scrolling_box():
    unboxed = []
    for path in _page_templates():
        text = path.read_text(encoding="utf-8")
        for match in TABLE.finditer(text):
            before = LAST_TAG.search(text[: match.start()])
            if before is None or 'class="table-scroll"' not in before.group():
                line = text.count("\n", 0, match.start()) + 1
                unboxed.append(f"{path.relative_to(PACKAGE)}:{line}")
    assert unboxed == []


def test_the_templates_are_found():
    assert len([p for p in _page_templates() if TABLE.search(p.read_text(encoding="utf-8"))]) > 10

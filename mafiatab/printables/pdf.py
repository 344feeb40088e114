"""PDF documents from Django templates, with WeasyPrint.

Laying out pages is what costs. Many protocols are laid out together, as one document
(`PROTOCOLS_PER_DOCUMENT` at a time), and each protocol's PDF is written from its own
pages of that document. Measured with bench/bench_archive.py, this is not reliably
faster than one document per protocol (0.8 to 1.3 times its speed on samples of 20
protocols): the layout of each page costs the same either way. A document's memory
grows with its pages (some 2 MB a protocol), hence small documents. What did pay: a
small user-agent stylesheet (below), fewer elements per protocol, and seating blocks
as lines of text rather than tables.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from typing import Any

from django.contrib.staticfiles import finders
from django.template.loader import render_to_string

from mafiatab.printables.sheets import ProtocolSheet

#: The print stylesheet, a static file of this app.
STYLESHEET = "printables/print.css"
#: Protocols laid out in one document.
PROTOCOLS_PER_DOCUMENT = 20

#: What the printed templates need of a browser's default stylesheet. WeasyPrint
#: matches its full HTML stylesheet against every element, which costs a quarter of
#: the time of laying out a protocol; the sheets use only these elements.
USER_AGENT_CSS = """
html, body, div, section, header, h1, h2, p { display: block }
head, title, meta, style, link, script { display: none }
table { display: table; border-spacing: 2px; border-collapse: separate; text-indent: 0 }
thead { display: table-header-group; vertical-align: middle }
tbody { display: table-row-group; vertical-align: middle }
tr { display: table-row; vertical-align: inherit }
td, th { display: table-cell; vertical-align: inherit }
th, strong, b { font-weight: bold }
"""


class Renderer:
    """WeasyPrint with the print stylesheet and fonts loaded once, for many documents."""

    def __init__(self) -> None:
        from weasyprint import CSS, HTML
        from weasyprint.text.fonts import FontConfiguration

        path = finders.find(STYLESHEET)
        if path is None:
            raise RuntimeError(f"the stylesheet {STYLESHEET} is missing")
        self.fonts = FontConfiguration()
        self.css = CSS(filename=str(path), font_config=self.fonts)
        with open(path, "rb") as stylesheet:
            #: Part of the digest of a kept document: a new stylesheet prints anew.
            self.stylesheet_digest = hashlib.sha256(stylesheet.read()).hexdigest()
        user_agent = CSS(string=USER_AGENT_CSS, font_config=self.fonts)

        class SheetHTML(HTML):  # type: ignore[misc]
            """HTML with the small user-agent stylesheet above."""

            def _ua_stylesheets(self, *args: Any, **kwargs: Any) -> list[Any]:
                return [user_agent]

        self.html = SheetHTML

    def document(self, template: str, context: dict[str, Any]) -> Any:
        """The laid-out pages of `template` (a WeasyPrint document)."""
        return self.laid_out(render_to_string(template, context))

    def laid_out(self, html: str) -> Any:
        """The laid-out pages of `html` (a WeasyPrint document)."""
        return self.html(string=html, base_url=".").render(
            stylesheets=[self.css], font_config=self.fonts
        )

    def digest(self, html: str) -> str:
        """The SHA-256 of what `html` prints with this stylesheet."""
        text = f"{self.stylesheet_digest}\n{html}"
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def pdf(self, template: str, context: dict[str, Any]) -> bytes:
        """`template` rendered with `context` as PDF bytes."""
        return bytes(self.document(template, context).write_pdf())

    def protocols(self, sheets: Sequence[ProtocolSheet]) -> bytes:
        """The protocols as one PDF, a sheet after another."""
        return self.pdf("printables/protocols.html", {"sheets": sheets, "title": _title(sheets)})

    def each_protocol(self, sheets: Sequence[ProtocolSheet]) -> Iterator[tuple[str, bytes]]:
        """Every sheet as its own PDF: (file name, bytes), in order.

        The sheets are laid out `PROTOCOLS_PER_DOCUMENT` at a time in one document;
        each sheet's pages (one, or two with written reasons) are found by the anchor
        its first page holds and written as a PDF of their own.
        """
        for start in range(0, len(sheets), PROTOCOLS_PER_DOCUMENT):
            chunk = sheets[start : start + PROTOCOLS_PER_DOCUMENT]
            document = self.document(
                "printables/protocols.html", {"sheets": chunk, "title": _title(chunk)}
            )
            keys = {sheet.key for sheet in chunk}
            firsts: dict[str, int] = {}
            for index, page in enumerate(document.pages):
                for anchor in page.anchors:
                    if anchor in keys and anchor not in firsts:
                        firsts[anchor] = index
            bounds = [firsts[sheet.key] for sheet in chunk] + [len(document.pages)]
            for i, sheet in enumerate(chunk):
                pages = document.pages[bounds[i] : bounds[i + 1]]
                yield sheet.filename, bytes(document.copy(pages).write_pdf())


def _title(sheets: Sequence[ProtocolSheet]) -> str:
    if not sheets:
        return ""
    first = sheets[0]
    return f"{first.tournament} · {first.game}" if len(sheets) == 1 else first.tournament

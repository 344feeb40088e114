"""Big documents kept as they were last rendered: the seating sheets of a tournament.

Laying out the seating of hundreds of rounds takes seconds. A `KeptPdf` is the PDF of
one document (`name`: which sheet, for whom) in one language, keyed by the digest of
what it prints (its HTML and the print stylesheet): the same content is read back,
never laid out again; other content is rendered and replaces it.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class KeptPdf(models.Model):
    """The last rendering of one of a tournament's big documents, by its content."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    name = models.CharField(max_length=64)
    language = models.CharField(max_length=16)
    digest = models.CharField(max_length=64)  # SHA-256 of the stylesheet and the HTML
    pdf = models.BinaryField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tournament", "name", "language", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "name", "language", "digest"],
                name="printables_kept_pdf_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.language})"

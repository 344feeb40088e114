"""Keeping a big document's PDF (`KeptPdf`): derived from what it prints, so keeping
one is no change of the tournament and leaves no audit entry."""

from __future__ import annotations

import logging

from django.db import DatabaseError, IntegrityError, transaction

from mafiatab.printables.models import KeptPdf
from mafiatab.security.busy import is_retryable
from mafiatab.tournaments.models import Tournament

logger = logging.getLogger("mafiatab.printables")


def kept_pdf_replace(
    *, tournament: Tournament, name: str, language: str, digest: str, pdf: bytes
) -> bytes:
    """Keep `pdf` as the document `name` in `language`, in place of an earlier content;
    returns the document kept (another request's when it kept the same content first).
    A database too busy to take it keeps nothing and returns `pdf`."""
    try:
        with transaction.atomic():
            KeptPdf.objects.filter(tournament=tournament, name=name, language=language).exclude(
                digest=digest
            ).delete()
            KeptPdf.objects.create(
                tournament=tournament, name=name, language=language, digest=digest, pdf=pdf
            )
        return pdf
    except IntegrityError:
        kept = (
            KeptPdf.objects.filter(
                tournament=tournament, name=name, language=language, digest=digest
            )
            .values_list("pdf", flat=True)
            .first()
        )
        return pdf if kept is None else bytes(kept)
    except DatabaseError as exc:
        if not is_retryable(exc):
            raise
        logger.warning("The PDF %s of %s was not kept: %s", name, tournament.slug, exc)
        return pdf

"""Keeping the PDF of a confirmed protocol version: written once, by whoever renders it
first.

A kept PDF is derived from its version (what the version's sheet prints, rendered
once), not a change of the protocol: keeping one leaves no audit entry. Two first
renders at once keep one row; the second is answered with the first's document.
"""

from __future__ import annotations

import logging

from django.db import DatabaseError, IntegrityError, transaction

from mafiatab.games.models import ProtocolPdf
from mafiatab.security.busy import is_retryable

logger = logging.getLogger("mafiatab.printables")


def protocol_pdf_keep(*, version_id: int, language: str, digest: str, pdf: bytes) -> bytes:
    """Keep `pdf` as the document of the version in `language` (for the sheet whose
    content hashes to `digest`); returns the document kept, which is the one kept
    before when another request kept it first. A database too busy to take the row
    (or a full disk) keeps nothing: the document is still returned, and the next
    request keeps it."""
    try:
        with transaction.atomic():
            ProtocolPdf.objects.create(
                version_id=version_id, language=language, digest=digest, pdf=pdf
            )
        return pdf
    except IntegrityError:
        kept = (
            ProtocolPdf.objects.filter(version_id=version_id, language=language, digest=digest)
            .values_list("pdf", flat=True)
            .first()
        )
        return pdf if kept is None else bytes(kept)
    except DatabaseError as exc:
        if not is_retryable(exc):
            raise
        logger.warning("The PDF of protocol version %s was not kept: %s", version_id, exc)
        return pdf

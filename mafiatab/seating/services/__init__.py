"""Generating seating drafts and publishing one as the rounds and tables of a stage.

The schedule itself is made by the core (`mafiatab.core.seating.plan_seating`);
these services feed it the tournament's participants and store what it returns.

The package holds `inputs` (the request, the participants, the settings),
`drafts` (generating), `publishing` (a draft becomes rounds and tables) and
`reseating` (after a replacement). Every name is imported from here.
"""

from mafiatab.seating.services.drafts import seating_generate, seating_regenerate
from mafiatab.seating.services.inputs import (
    ITERATIONS_SETTING,
    TIME_LIMIT_SETTING,
    Participant,
    SeatingInputs,
    club_groups,
    default_tables,
    next_seed,
    not_checked_in,
    participants,
    published_draft,
)
from mafiatab.seating.services.publishing import (
    create_rounds,
    judges_seated,
    seating_from_rounds,
    seating_publish,
)
from mafiatab.seating.services.reseating import (
    is_reseat,
    played_rounds,
    published_reseat,
    seating_reseat,
)

__all__ = [
    "ITERATIONS_SETTING",
    "TIME_LIMIT_SETTING",
    "Participant",
    "SeatingInputs",
    "club_groups",
    "create_rounds",
    "default_tables",
    "is_reseat",
    "judges_seated",
    "next_seed",
    "not_checked_in",
    "participants",
    "played_rounds",
    "published_draft",
    "published_reseat",
    "seating_from_rounds",
    "seating_generate",
    "seating_publish",
    "seating_regenerate",
    "seating_reseat",
]

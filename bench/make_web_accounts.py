"""The people of the web benchmark, in the database of `MAFIATAB_DATA_DIR`.

    MAFIATAB_DATA_DIR=DIR .venv/bin/python bench/make_web_accounts.py SLUG [--games 20]

For the imported tournament SLUG: a player (an account linked to a participant's
registration) signed in, and a chief judge with a personal API token. Prints one
JSON object: the player's nickname and session cookie, the chief judge's token and
the ids of `--games` confirmed games spread over the tournament.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("slug")
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mafiatab.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.test import Client

    from mafiatab.accounts.models import User
    from mafiatab.api.services import token_create
    from mafiatab.games.models import Game, GameStatus
    from mafiatab.registrations.models import Registration
    from mafiatab.tournaments.models import StaffRole, Tournament
    from mafiatab.tournaments.services import staff_assign

    tournament = Tournament.objects.get(slug=args.slug)
    registration = Registration.objects.filter(tournament=tournament).order_by("pk").first()
    if registration is None:
        raise SystemExit(f"{args.slug}: no participant to sign in as")
    player = User.objects.create_user(
        username="bench-player", password=None, nickname=registration.nickname
    )
    Registration.objects.filter(pk=registration.pk).update(user=player)
    client = Client()
    client.force_login(player, backend="mafiatab.accounts.backends.AccountBackend")

    chief = User.objects.create_user(username="bench-chief", password=None, nickname="Bench Chief")
    staff_assign(tournament=tournament, user=chief, role=StaffRole.CHIEF_JUDGE, by=None)
    token = token_create(user=chief, name="benchmark")[1]

    confirmed = list(
        Game.objects.filter(tournament=tournament, status=GameStatus.CONFIRMED, replayed=False)
        .order_by("position")
        .values_list("pk", flat=True)
    )
    step = max(1, len(confirmed) // max(1, args.games))
    games = confirmed[::step][: args.games]
    if len(games) < args.games:
        raise SystemExit(f"{args.slug}: fewer than {args.games} confirmed games")
    print(
        json.dumps(
            {
                "player": registration.nickname,
                "session": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "session_cookie": settings.SESSION_COOKIE_NAME,
                "token": token,
                "games": games,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Every game has its protocol as a stored version: a game stored before versions
existed gets its first version from its rows (the protocol as the rows hold it), so
that the current version is the one truth the pages, the files and the standings read."""

from decimal import Decimal

from django.db import migrations
from django.utils import timezone


def _points(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def _data(game) -> dict:
    data: dict = {"id": game.label, "stage": game.stage}
    for key in ("round", "table", "date", "judge"):
        value = getattr(game, key)
        if value not in (None, ""):
            data[key] = value
    data["seats"] = [
        {"player": s.player, "role": s.role or None, "fouls": s.fouls}
        for s in game.seats.order_by("number")
    ]
    data["winner"] = game.winner or None
    data["first_killed"] = game.first_killed
    if game.best_move:
        data["best_move"] = list(game.best_move)
    extras = [
        {
            "seat": e.seat,
            "points": _points(e.points),
            "reason": e.reason,
            "chief_approved": e.chief_approved,
        }
        for e in game.extras.order_by("position")
    ]
    if extras:
        data["judge_extra"] = extras
    penalties = [
        {"seat": p.seat, "rule": p.rule, "reason": p.reason}
        for p in game.penalties.order_by("position")
    ]
    if penalties:
        data["penalties"] = penalties
    removals = [
        {"seat": r.seat, "reason": r.reason, "online": r.online, "fined": r.fined}
        for r in game.removals.order_by("position")
    ]
    if removals:
        data["disqualified"] = removals
    if game.replayed:
        data["replayed"] = True
    data["voting"] = list(game.voting or [])
    return data


def versions_for_every_game(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    ProtocolVersion = apps.get_model("games", "ProtocolVersion")
    now = timezone.now()
    for game in Game.objects.filter(versions__isnull=True).iterator():
        number = game.version or 1
        ProtocolVersion.objects.create(
            game=game,
            number=number,
            data=_data(game),
            status=game.status,
            action="imported",
            reason="",
            created_at=now,
        )
        if game.version != number:
            Game.objects.filter(pk=game.pk).update(version=number)


class Migration(migrations.Migration):
    dependencies = [("games", "0007_table_side_judge")]

    operations = [migrations.RunPython(versions_for_every_game, migrations.RunPython.noop)]

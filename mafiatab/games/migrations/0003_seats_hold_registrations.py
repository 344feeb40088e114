"""A table seat holds a registration, never free text; a protocol seat knows the
registration its nickname resolves to.

Existing table seats are resolved by the nickname's key among the tournament's
registrations (participants first); a name that is nobody's gets a registration
with the status `reserve`, so that no seat is lost and the organiser sees it.
"""

import django.db.models.deletion
from django.db import migrations, models

from mafiatab.core.names import nickname_key

ORDER = {"approved": 0, "reserve": 1, "waiting": 2, "pending": 3}


def _holders(Registration, tournament_id):
    holders = {}
    rows = Registration.objects.filter(tournament_id=tournament_id).order_by("id")
    for reg in sorted(rows, key=lambda r: ORDER.get(r.status, 9)):
        holders.setdefault(nickname_key(reg.nickname), reg)
    return holders


def resolve_seats(apps, schema_editor):
    Registration = apps.get_model("registrations", "Registration")
    TableSeat = apps.get_model("games", "TableSeat")
    GameSeat = apps.get_model("games", "GameSeat")
    cache = {}

    def holder(tournament_id, name, create):
        if tournament_id not in cache:
            cache[tournament_id] = _holders(Registration, tournament_id)
        key = nickname_key(name)
        found = cache[tournament_id].get(key)
        if found is None and create and key:
            found = Registration.objects.create(
                tournament_id=tournament_id,
                nickname=name.strip()[:64],
                nickname_key=key,
                status="reserve",
                reason="seated before seats held participants",
            )
            cache[tournament_id][key] = found
        return found

    for seat in TableSeat.objects.select_related("table__round"):
        seat.registration = holder(seat.table.round.tournament_id, seat.player, True)
        seat.save(update_fields=["registration"])
    for seat in GameSeat.objects.select_related("game"):
        found = holder(seat.game.tournament_id, seat.player, False)
        if found is not None:
            seat.registration = found
            seat.save(update_fields=["registration"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_rounds_versions_protests"),
        ("registrations", "0002_nickname_key_reserve"),
    ]

    operations = [
        migrations.AddField(
            model_name="tableseat",
            name="registration",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="table_seats",
                to="registrations.registration",
                verbose_name="participant",
            ),
        ),
        migrations.AddField(
            model_name="gameseat",
            name="registration",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="game_seats",
                to="registrations.registration",
            ),
        ),
        migrations.RunPython(resolve_seats, migrations.RunPython.noop),
        migrations.RemoveField(model_name="tableseat", name="player"),
        migrations.AlterField(
            model_name="tableseat",
            name="registration",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="table_seats",
                to="registrations.registration",
                verbose_name="participant",
            ),
        ),
    ]

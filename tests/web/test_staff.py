"""The staff page: giving a role, taking it away (the last organiser keeps his), and
the creator of a tournament as its chief judge unless he names another."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import translation

from mafiatab.tournaments.models import StaffMember, StaffRole
from mafiatab.tournaments.permissions import roles_of
from mafiatab.tournaments.services import staff_remove

pytestmark = pytest.mark.django_db


def _member(tournament, user, role):
    return StaffMember.objects.get(tournament=tournament, user=user, role=role)


def test_the_organiser_takes_a_role_away_on_the_staff_page_and_it_is_recorded(
    client, tournament, staff
):
    member = _member(tournament, staff["judge"], StaffRole.TABLE_JUDGE)
    client.force_login(staff["organiser"])
    page = client.get(reverse("tournaments:staff", args=[tournament.slug])).content.decode()
    remove = reverse("tournaments:staff_remove", args=[tournament.slug, member.pk])
    assert remove in page
    response = client.post(remove, follow=True)
    assert "TableJudge no longer holds the role table judge." in response.content.decode()
    assert StaffRole.TABLE_JUDGE not in roles_of(staff["judge"], tournament)
    entry = tournament.audit_entries.get(action="staff.removed", target="TableJudge")
    assert entry.before == {"user": "TableJudge", "role": "table_judge"}
    assert entry.actor == staff["organiser"]


def test_only_an_organiser_takes_a_role_away(client, tournament, staff):
    member = _member(tournament, staff["judge"], StaffRole.TABLE_JUDGE)
    client.force_login(staff["chief"])
    url = reverse("tournaments:staff_remove", args=[tournament.slug, member.pk])
    assert client.post(url).status_code == 403
    with pytest.raises(PermissionDenied):
        staff_remove(member=member, by=staff["chief"])
    assert StaffMember.objects.filter(pk=member.pk).exists()


def test_the_last_organiser_cannot_take_his_own_role_away(client, tournament, staff):
    member = _member(tournament, staff["organiser"], StaffRole.ORGANISER)
    client.force_login(staff["organiser"])
    url = reverse("tournaments:staff_remove", args=[tournament.slug, member.pk])
    page = client.get(reverse("tournaments:staff", args=[tournament.slug])).content.decode()
    assert url not in page  # not offered
    response = client.post(url, follow=True)
    assert "The last organiser of the tournament keeps the role" in response.content.decode()
    assert StaffMember.objects.filter(pk=member.pk).exists()
    assert not tournament.audit_entries.filter(
        action="staff.removed", before__role="organiser"
    ).exists()


def test_an_organiser_leaves_once_another_organiser_is_named(tournament, staff):
    from mafiatab.tournaments.services import staff_assign

    staff_assign(
        tournament=tournament, user=staff["chief"], role=StaffRole.ORGANISER, by=staff["organiser"]
    )
    staff_remove(
        member=_member(tournament, staff["organiser"], StaffRole.ORGANISER), by=staff["organiser"]
    )
    assert StaffRole.ORGANISER not in roles_of(staff["organiser"], tournament)


def test_a_role_already_taken_away_is_said_so(client, tournament, staff):
    member = _member(tournament, staff["judge"], StaffRole.TABLE_JUDGE)
    url = reverse("tournaments:staff_remove", args=[tournament.slug, member.pk])
    staff_remove(member=member, by=staff["organiser"])
    client.force_login(staff["organiser"])
    response = client.post(url, follow=True)
    assert response.status_code == 200
    assert "This role was already taken away." in response.content.decode()
    with pytest.raises(ValidationError):
        staff_remove(member=member, by=staff["organiser"])


def _new_tournament(client, **fields):
    data = {"name": "Autumn Cup", "ruleset": "fiim", "registration_open": "on"} | fields
    return client.post(reverse("tournaments:new"), data)


def test_the_organiser_who_creates_a_tournament_is_its_chief_judge(client, make_user):
    from mafiatab.tournaments.models import Tournament

    creator = make_user("Creator")
    client.force_login(creator)
    response = _new_tournament(client)
    tournament = Tournament.objects.get(name="Autumn Cup")
    assert response.status_code == 302
    assert roles_of(creator, tournament) >= {StaffRole.ORGANISER, StaffRole.CHIEF_JUDGE}
    assert list(tournament.staff(StaffRole.CHIEF_JUDGE)) == [creator]
    assert tournament.audit_entries.filter(action="staff.assigned").get().after == {
        "user": "Creator",
        "role": "chief_judge",
    }


def test_a_tournament_created_naming_a_chief_judge_has_him_instead_of_its_creator(
    client, make_user
):
    from mafiatab.tournaments.models import Tournament

    creator, judge = make_user("Creator"), make_user("Judge Dredd")
    client.force_login(creator)
    page = client.get(reverse("tournaments:new")).content.decode()
    assert 'name="chief_judge"' in page
    _new_tournament(client, chief_judge="judge dredd")
    tournament = Tournament.objects.get(name="Autumn Cup")
    assert list(tournament.staff(StaffRole.CHIEF_JUDGE)) == [judge]
    assert roles_of(creator, tournament) == {StaffRole.ORGANISER, "member"}


def test_a_chief_judge_without_an_account_is_refused_and_nothing_is_created(client, make_user):
    from mafiatab.tournaments.models import Tournament

    client.force_login(make_user("Creator"))
    response = _new_tournament(client, chief_judge="Nobody Known")
    assert response.status_code == 200
    assert "No account has the nickname Nobody Known." in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_last_chief_judge_keeps_his_role_until_another_is_named(client, tournament, staff):
    """Without a chief judge nobody confirms a protocol (the queue of protocols to
    confirm is his): his role is not offered for removal, and taking it is refused."""
    member = _member(tournament, staff["chief"], StaffRole.CHIEF_JUDGE)
    url = reverse("tournaments:staff_remove", args=[tournament.slug, member.pk])
    client.force_login(staff["organiser"])
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("tournaments:staff", args=[tournament.slug])).content.decode()
    assert url not in page  # not offered
    said = client.post(url, follow=True).content.decode()
    assert (
        "Последний главный судья турнира сохраняет роль: сначала назначьте другого главного судью."
        in said
    )
    assert "больше нет роли" not in said and "роль «главный судья» снята" not in said
    with (
        translation.override("en"),
        pytest.raises(ValidationError, match="name another chief judge first"),
    ):
        staff_remove(member=member, by=staff["organiser"])
    assert StaffMember.objects.filter(pk=member.pk).exists()
    assert not tournament.audit_entries.filter(action="staff.removed", target="Chief").exists()
    client.force_login(staff["chief"])
    assert client.get(reverse("games:queue", args=[tournament.slug])).status_code == 200


def test_a_chief_judge_leaves_once_another_chief_judge_is_named(client, tournament, staff):
    from mafiatab.tournaments.services import staff_assign

    staff_assign(
        tournament=tournament,
        user=staff["judge"],
        role=StaffRole.CHIEF_JUDGE,
        by=staff["organiser"],
    )
    member = _member(tournament, staff["chief"], StaffRole.CHIEF_JUDGE)
    url = reverse("tournaments:staff_remove", args=[tournament.slug, member.pk])
    client.force_login(staff["organiser"])
    assert url in client.get(reverse("tournaments:staff", args=[tournament.slug])).content.decode()
    client.post(url)
    assert list(tournament.staff(StaffRole.CHIEF_JUDGE)) == [staff["judge"]]


def test_taking_a_role_away_is_said_in_russian_with_the_name_undeclined(client, tournament, staff):
    """A nickname does not decline: the confirmation and the message name the person
    where no case is asked."""
    judge = staff["judge"]
    judge.nickname = "Анна Волкова"
    judge.save()
    member = _member(tournament, judge, StaffRole.TABLE_JUDGE)
    client.force_login(staff["organiser"])
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("tournaments:staff", args=[tournament.slug])).content.decode()
    assert "Снять роль «судья стола» — Анна Волкова?" in page and "Снять с " not in page
    url = reverse("tournaments:staff_remove", args=[tournament.slug, member.pk])
    said = client.post(url, follow=True).content.decode()
    assert "Анна Волкова: роль «судья стола» снята." in said and "У Анна" not in said

"""Writes to accounts: sign up and profile changes.

One import runs up a floor, on purpose: a rename is checked against the fellow
participants of the account's tournaments (`mafiatab.registrations.models`), since a
seat belongs to a registration and no rename may make one player look like another
at the table. Accounts read those rows; they write none.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from mafiatab.accounts.models import User
from mafiatab.audit.services import audit_record
from mafiatab.core.names import MAX_NICKNAME, nickname_key, nickname_problems, normalize_nickname
from mafiatab.messages import say
from mafiatab.registrations.models import NAMED_STATUSES, Registration


def nickname_refusal(nickname: str) -> str | None:
    """Why the core would refuse this nickname in a protocol (too long, a control or a
    bidirectional-formatting character), in the reader's language; None when fine.

    Every door that makes a nickname (sign-up, profile, the organiser's add) asks
    this, so that nobody can become a participant that no protocol could seat."""
    codes = nickname_problems(nickname)
    if not codes:
        return None
    return say(codes[0], {"limit": MAX_NICKNAME}) or codes[0]


def check_nickname(nickname: str, *, exclude: User | None = None) -> str:
    """The cleaned nickname; ValidationError when empty or taken (in any case, any script).

    With `exclude` (a rename), also refused when another participant of a tournament
    the account plays in has this nickname: a seat belongs to a registration, and no
    rename may make one player look like another at the table.
    """
    nickname = normalize_nickname(" ".join(nickname.split()))
    if not nickname:
        raise ValidationError({"nickname": _("Choose a nickname.")})
    if (refusal := nickname_refusal(nickname)) is not None:
        raise ValidationError({"nickname": refusal})
    key = nickname_key(nickname)
    taken = User.objects.filter(nickname_key=key)
    if exclude is not None:
        taken = taken.exclude(pk=exclude.pk)
    if taken.exists():
        raise ValidationError(
            {"nickname": _("The nickname %(nick)s is already taken.") % {"nick": nickname}}
        )
    if exclude is not None:
        _check_fellow_participants(exclude, key, nickname)
    return nickname


def _check_fellow_participants(user: User, key: str, nickname: str) -> None:
    clash = (
        Registration.objects.filter(
            nickname_key=key,
            status__in=NAMED_STATUSES,
            tournament__registrations__user=user,
            tournament__registrations__status__in=NAMED_STATUSES,
        )
        .exclude(user=user)
        .select_related("tournament")
        .first()
    )
    if clash is not None:
        raise ValidationError(
            {
                "nickname": _("%(nick)s is the nickname of another participant of %(tournament)s.")
                % {"nick": nickname, "tournament": clash.tournament.name}
            }
        )


@transaction.atomic
def account_create(
    *, username: str, password: str, nickname: str, city: str = "", club: str = "", email: str = ""
) -> User:
    """A new account. The login and the e-mail address are checked as the sign-up form
    checks them, whatever the door (the form, `mafiatab createsuperuser`)."""
    nickname = check_nickname(nickname)
    for name, value in (("username", username), ("email", email)):
        try:
            User._meta.get_field(name).clean(value, None)
        except ValidationError as exc:
            raise ValidationError({name: exc.messages}) from None
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": _("This login is already taken.")})
    user = User.objects.create_user(
        username=username,
        password=password,
        nickname=nickname,
        city=city.strip(),
        club=club.strip(),
        email=email,
    )
    audit_record(
        action="account.created",
        by=user,
        target=nickname,
        after={"username": username, "nickname": nickname},
    )
    return user


def _profile(user: User) -> dict[str, str]:
    return {"nickname": user.nickname, "city": user.city, "club": user.club, "email": user.email}


@transaction.atomic
def profile_update(
    *, user: User, nickname: str, city: str, club: str, email: str | None = None
) -> User:
    """Change the nickname, city, club and (unless None) the e-mail of an account."""
    nickname = check_nickname(nickname, exclude=user)
    if email is not None:
        email = email.strip()
        try:
            User._meta.get_field("email").clean(email, user)
        except ValidationError as exc:
            raise ValidationError({"email": exc.messages}) from None
    before = _profile(user)
    user.nickname, user.city, user.club = nickname, city.strip(), club.strip()
    if email is not None:
        user.email = email
    user.save(update_fields=["nickname", "city", "club", "email"])
    after = _profile(user)
    audit_record(
        action="account.updated",
        by=user,
        target=nickname,
        before=before,
        after=after,
    )
    return user

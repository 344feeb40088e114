"""The caller's account and personal API tokens."""

from __future__ import annotations

import datetime as dt

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Path, Router, Schema
from ninja import Status as HttpStatus

from mafiatab.api.errors import AUTH_ERRORS, BAD_INPUT, MAX_ID, NOT_FOUND, NotFound
from mafiatab.api.schemas import Label
from mafiatab.api.services import token_create, token_revoke

router = Router(tags=["account"])
TOKEN_ID = Path(..., ge=1, le=MAX_ID, description="The token's id.")


class MeOut(Schema):
    username: str
    nickname: str


class TokenOut(Schema):
    """A personal token, without its secret."""

    id: int
    name: str
    prefix: str = Field(description="The token's first characters.")
    created_at: dt.datetime
    last_used_at: dt.datetime | None


class NewTokenOut(TokenOut):
    token: str = Field(description="The token itself. It is shown only this once.")


class TokenIn(Schema):
    name: Label = Field(description="What the token is for, e.g. 'results script'.")


@router.get("/me", response={200: MeOut, **AUTH_ERRORS}, summary="Who am I")
def me(request: HttpRequest):
    """The account the request acts as."""
    return request.auth


@router.get("/me/tokens", response={200: list[TokenOut], **AUTH_ERRORS}, summary="My tokens")
def list_tokens(request: HttpRequest):
    return request.auth.api_tokens.all()


@router.post(
    "/me/tokens",
    response={201: NewTokenOut, **AUTH_ERRORS, **BAD_INPUT},
    summary="Create a personal token",
)
def create_token(request: HttpRequest, data: TokenIn):
    """A new personal token acting as you; send it as `Authorization: Bearer <token>`."""
    token, key = token_create(user=request.auth, name=data.name)
    return HttpStatus(
        201,
        {
            "id": token.id,
            "name": token.name,
            "prefix": token.prefix,
            "created_at": token.created_at,
            "last_used_at": token.last_used_at,
            "token": key,
        },
    )


@router.delete(
    "/me/tokens/{token_id}",
    response={204: None, **AUTH_ERRORS, **NOT_FOUND},
    summary="Revoke a personal token",
)
def revoke_token(request: HttpRequest, token_id: int = TOKEN_ID):
    token = request.auth.api_tokens.filter(pk=token_id).first()
    if token is None:
        raise NotFound(_("You have no token %(id)d.") % {"id": token_id})
    token_revoke(token=token, by=request.auth)
    return HttpStatus(204, None)

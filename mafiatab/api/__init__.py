"""The JSON API (django-ninja): OpenAPI at /api/openapi.json, docs at /api/docs.

Reading is open to everyone; writing needs a person, authenticated by a personal
API token (`Authorization: Bearer ...`) or by the web application's session
(with CSRF), and the same permission as on the pages (`user_can`). Each domain
has its router in its own app (`mafiatab.<app>.api`), added in `build_api` by name;
this package is the plumbing they stand on (tokens, authentication, errors, schemas).

This package is also the Django app holding the tokens, so Django imports it
before the models are ready: the routers (which import models) are only loaded
when `api` is first used, e.g. by `from mafiatab.api import api` in the URLconf.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ninja import NinjaAPI

DESCRIPTION = """\
The open API of mafiatab. Reading is open to everyone. Writing needs a person:
send `Authorization: Bearer <token>` with a personal API token (create one with
`POST /api/me/tokens` while signed in to the web application), or use the
signed-in session with its CSRF token. Refusals are JSON:
`{"detail": "...", "errors": {"field": ["..."]}}`.
"""

api: NinjaAPI


def build_api() -> NinjaAPI:
    """The API with all its routers."""
    from ninja import NinjaAPI

    from mafiatab.api.auth import AUTH
    from mafiatab.api.errors import install_error_handlers

    api = NinjaAPI(
        title="mafiatab", version="1", description=DESCRIPTION, urls_namespace="api", auth=AUTH
    )
    install_error_handlers(api)
    api.add_router("", "mafiatab.front.api.router")
    api.add_router("", "mafiatab.registrations.api.router")
    api.add_router("", "mafiatab.penalties.api.router")
    api.add_router("", "mafiatab.standings.api.router")
    api.add_router("", "mafiatab.api.me.router")
    api.add_router("", "mafiatab.games.api.router")
    api.add_router("", "mafiatab.games.api.rounds.router")
    api.add_router("", "mafiatab.console.api.router")
    return api


def __getattr__(name: str) -> NinjaAPI:
    if name == "api":
        globals()["api"] = built = build_api()
        return built
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""Errors as JSON: one shape for every refusal, and the lookups that raise them.

Every error answer is `{"detail": "...", "errors": {"field": ["..."]}}`: `detail`
reads as a sentence; `errors` names the fields at fault (`__all__` for the request
as a whole) and is empty when no field is to blame.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError

from mafiatab.core.problems import Problem
from mafiatab.messages import is_core_problem, problem_line, problem_text
from mafiatab.security.busy import is_retryable, log_busy, retry_after, retry_message

logger = logging.getLogger("mafiatab.api")

#: What a tournament's address looks like (Django's slug).
SLUG_RE = re.compile(r"[-a-zA-Z0-9_]+")
#: The largest id the database stores.
MAX_ID = 2**63 - 1


class ProblemItem(Schema):
    """One problem of a refused protocol, as the core names it."""

    game: str | None = None
    seat: int | None = None
    field: str
    code: str | None = None
    message: str


class Error(Schema):
    """A refused request; a refused protocol also lists its `problems`."""

    detail: str
    errors: dict[str, list[str]] = {}
    problems: list[ProblemItem] = []


#: The refusals an operation declares, by what it reads. Needing a person:
AUTH_ERRORS: dict[int, Any] = {401: Error, 403: Error}
#: Reading parameters (path, query):
INVALID: dict[int, Any] = {422: Error}
#: Looking up a tournament or another object by its address:
NOT_FOUND: dict[int, Any] = {404: Error, **INVALID}
#: Reading a request body (413: larger than the server reads):
BAD_INPUT: dict[int, Any] = {400: Error, 413: Error, **INVALID}
#: A write that names the version it starts from (409: someone wrote meanwhile):
VERSIONED_WRITE: dict[int, Any] = {**AUTH_ERRORS, **NOT_FOUND, **BAD_INPUT, 409: Error}


class NotFound(HttpError):
    def __init__(self, message: str) -> None:
        super().__init__(404, message)


class Forbidden(HttpError):
    def __init__(self, message: str) -> None:
        super().__init__(403, message)


def _error(api: NinjaAPI, request: HttpRequest, status: int, detail: str, errors: Any = None):
    return api.create_response(request, {"detail": detail, "errors": errors or {}}, status=status)


def _field_name(loc: tuple[Any, ...]) -> str:
    """`("body", "data", "reason")` -> `reason`; `("query", "limit")` -> `limit`."""
    parts = [str(part) for part in loc[1:]]
    if loc and loc[0] == "body" and len(parts) > 1:
        parts = parts[1:]
    return ".".join(parts) or NON_FIELD_ERRORS


def _request_invalid(api: NinjaAPI, request: HttpRequest, exc: NinjaValidationError):
    errors: dict[str, list[str]] = {}
    for error in exc.errors:
        errors.setdefault(_field_name(tuple(error.get("loc", ()))), []).append(
            str(error.get("msg", ""))
        )
    detail = "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in errors.items())
    return _error(api, request, 422, _("Invalid input. %(errors)s") % {"errors": detail}, errors)


def _service_refused(api: NinjaAPI, request: HttpRequest, exc: DjangoValidationError):
    problems = getattr(exc, "problems", None)
    if isinstance(problems, list) and problems and all(isinstance(p, Problem) for p in problems):
        # A refusal that lists the protocol's problems (a protocol breaking rules).
        return _protocol_refused(api, request, exc)
    if hasattr(exc, "error_dict"):
        errors = {field: list(messages) for field, messages in exc.message_dict.items()}
    else:
        errors = {NON_FIELD_ERRORS: list(exc.messages)}
    return _error(api, request, 422, " ".join(exc.messages), errors)


def problem_item(problem: Any) -> dict[str, Any]:
    """A core problem as the API shows it: its code (None for a problem only the web
    application sees, such as a seat held by a non-participant) and its sentence in the
    reader's language."""
    return {
        "game": problem.game,
        "seat": problem.seat,
        "field": problem.field,
        "code": problem.code if is_core_problem(problem) else None,
        "message": problem_text(problem),
    }


def _protocol_refused(api: NinjaAPI, request: HttpRequest, exc: Any):
    problems = [problem_item(p) for p in exc.problems]
    errors: dict[str, list[str]] = {}
    for item in problems:
        errors.setdefault(item["field"], []).append(
            f"seat {item['seat']}: {item['message']}" if item["seat"] else item["message"]
        )
    detail = _("The protocol has problems: %(problems)s") % {
        "problems": "; ".join(problem_line(p) for p in exc.problems)
    }
    return api.create_response(
        request, {"detail": detail, "errors": errors, "problems": problems}, status=422
    )


def _http_error(api: NinjaAPI, request: HttpRequest, exc: HttpError):
    return _error(api, request, exc.status_code, str(exc))


def _not_authenticated(api: NinjaAPI, request: HttpRequest, exc: AuthenticationError):
    detail = _(
        "Sign in first: send 'Authorization: Bearer <token>' with a personal API token, "
        "or use the signed-in session of the web application."
    )
    response = _error(api, request, 401, detail)
    response["WWW-Authenticate"] = "Bearer"
    return response


def _not_found(api: NinjaAPI, request: HttpRequest, exc: Http404):
    return _error(api, request, 404, _("Not found."))


def _too_big(api: NinjaAPI, request: HttpRequest, exc: RequestDataTooBig):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0
    detail = _("The request is too large: at most %(kb)d KB.") % {"kb": limit // 1024}
    return _error(api, request, 413, detail)


def _forbidden(api: NinjaAPI, request: HttpRequest, exc: PermissionDenied):
    return _error(api, request, 403, _("You may not do this."))


def _server_error(api: NinjaAPI, request: HttpRequest, exc: Exception):
    logger.error("API error on %s %s", request.method, request.path, exc_info=exc)
    return _error(api, request, 500, _("Something went wrong on the server; the error is logged."))


def _try_again(api: NinjaAPI, request: HttpRequest, exc: Exception):
    """A busy database or a full disk: 503 with Retry-After (nothing was saved)."""
    if not is_retryable(exc):
        return _server_error(api, request, exc)
    log_busy(request, exc)
    response = _error(api, request, 503, retry_message(exc))
    response["Retry-After"] = str(retry_after(exc))
    return response


def install_error_handlers(api: NinjaAPI) -> None:
    """Answer every refusal with the JSON `Error` shape."""

    def bind(handler: Any) -> Any:
        def handle(request: HttpRequest, exc: Exception) -> HttpResponse:
            return handler(api, request, exc)

        return handle

    api.add_exception_handler(NinjaValidationError, bind(_request_invalid))
    api.add_exception_handler(DjangoValidationError, bind(_service_refused))
    api.add_exception_handler(AuthenticationError, bind(_not_authenticated))
    api.add_exception_handler(HttpError, bind(_http_error))
    api.add_exception_handler(Http404, bind(_not_found))
    api.add_exception_handler(RequestDataTooBig, bind(_too_big))
    api.add_exception_handler(PermissionDenied, bind(_forbidden))
    api.add_exception_handler(DatabaseError, bind(_try_again))
    api.add_exception_handler(OSError, bind(_try_again))
    api.add_exception_handler(Exception, bind(_server_error))

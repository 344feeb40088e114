"""The API's refusals that never reach the API: answered in JSON all the same.

The API answers its own errors as JSON (`mafiatab.api.errors`), but a few come from
before or beside it: an address under `/api/` that names no operation (Django's 404),
a method the operation does not take (django-ninja's 405 "Method not allowed" in
plain text), a host not allowed (Django's 400) or an error in a middleware (Django's
500 page). This middleware, first in the chain, turns any such answer under `/api/`
into the same `{"detail", "errors"}` shape; answers already in JSON and successes
(the docs page) pass unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from mafiatab.security import API_PREFIX


def _detail(request: HttpRequest, response: HttpResponse) -> str:
    status = response.status_code
    if status == 404:
        return _("Not found.")
    if status == 405:
        return _("The method %(method)s is not allowed here (allowed: %(allowed)s).") % {
            "method": request.method,
            "allowed": response.get("Allow", ""),
        }
    if status >= 500:
        return _("Something went wrong on the server; the error is logged.")
    return _("The request was refused (%(status)d %(reason)s).") % {
        "status": status,
        "reason": response.reason_phrase,
    }


class ApiErrorsAsJson:
    """Answer every refusal under `/api/` in the API's JSON error shape."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code < 400
            or response.streaming
            or not request.path_info.startswith(API_PREFIX)
            or response.get("Content-Type", "").startswith("application/json")
        ):
            return response
        body = {"detail": _detail(request, response), "errors": {}}
        response.content = json.dumps(body, ensure_ascii=False).encode()
        response["Content-Type"] = "application/json; charset=utf-8"
        if response.has_header("Content-Length"):
            response["Content-Length"] = str(len(response.content))
        return response

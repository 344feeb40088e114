from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from mafiatab.accounts.forms import ProfileForm, SignUpForm
from mafiatab.accounts.services import account_create, profile_update


def _next_url(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        user = account_create(
            username=data["username"],
            password=data["password1"],
            nickname=data["nickname"],
            city=data.get("city", ""),
            club=data.get("club", ""),
            email=data.get("email", ""),
        )
        login(request, user, backend="mafiatab.accounts.backends.AccountBackend")
        messages.success(request, _("Welcome, %(nick)s!") % {"nick": user.nickname})
        return redirect(_next_url(request) or "tournaments:list")
    return render(request, "accounts/signup.html", {"form": form, "next": _next_url(request)})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    user = request.user
    initial = {"nickname": user.nickname, "city": user.city, "club": user.club, "email": user.email}
    form = ProfileForm(request.POST or None, user=user, initial=initial)
    if request.method == "POST" and form.is_valid():
        profile_update(user=user, **form.cleaned_data)
        messages.success(request, _("Profile saved."))
        return redirect("accounts:profile")
    registrations = user.registrations.select_related("tournament").order_by("-created_at")
    return render(request, "accounts/profile.html", {"form": form, "registrations": registrations})


class PasswordReset(auth_views.PasswordResetView):
    """Django's password reset, with the site's page and e-mail (in the reader's
    language). Where the site sends no e-mail (MAFIATAB_EMAIL_URL unset), the page
    says so instead of promising a message that never comes."""

    template_name = "accounts/password_reset_form.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def get_context_data(self, **kwargs: object) -> dict[str, object]:
        return super().get_context_data(**kwargs) | {"email_configured": settings.EMAIL_CONFIGURED}

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if not settings.EMAIL_CONFIGURED:
            return self.get(request, *args, **kwargs)
        return super().post(request, *args, **kwargs)

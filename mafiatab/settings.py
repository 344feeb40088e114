"""Django settings, read from the environment with safe defaults.

- `MAFIATAB_DATA_DIR` (default `./data`): where the SQLite database and the
  generated secret key live.
- `DATABASE_URL`: a PostgreSQL database (dj-database-url); SQLite otherwise (in WAL
  mode with immediate write transactions; `MAFIATAB_SQLITE_TIMEOUT` seconds, default
  30, is how long a writer waits for another to finish).
- `DJANGO_DEBUG` / `MAFIATAB_DEBUG`: "1"/"true" turns DEBUG on; off by default.
- `SECRET_KEY` / `MAFIATAB_SECRET_KEY`: the key; otherwise one is generated once
  and stored in the data directory.
- `MAFIATAB_ALLOWED_HOSTS`: comma-separated host names (default: loopback only).
- `MAFIATAB_HEAVY_EXPORTS` (default 2): how many heavy exports (the archive, the
  standings and seating PDFs, the XLSX) one process makes at once; one more is
  answered 503 with `Retry-After`.
- `MAFIATAB_LOGIN_FAILURES` (default 5) failed logins of one account from one address
  lock that pair out for `MAFIATAB_LOGIN_COOLOFF_MINUTES` (default 15).
- `MAFIATAB_EMAIL_URL`: where e-mail (password resets) goes: `smtp://HOST:PORT`,
  `smtp+starttls://USER:PASSWORD@HOST:PORT`, `smtps://USER:PASSWORD@HOST:PORT` (TLS
  from the start) or `console://` (written to the server's output). Unset: the site
  sends no e-mail, and the password reset page says so.
- `MAFIATAB_EMAIL_FROM`: the sender of that e-mail (default `mafiatab@localhost`).
- `MAFIATAB_SITE_URL`: the site's address as its visitors write it
  (e.g. `https://mafiatab.example.org`), for the links of the notification e-mails
  (default `http://127.0.0.1:8000`).
- `MAFIATAB_PRODUCTION`: "1" for production settings (`mafiatab serve` sets it
  unless it is given): HTTPS only, secure cookies, HSTS (`MAFIATAB_HSTS_SECONDS`,
  default a year; `MAFIATAB_HSTS_SUBDOMAINS`, default on; `MAFIATAB_HSTS_PRELOAD`,
  default off), a redirect to HTTPS (`MAFIATAB_SSL_REDIRECT`, default on) and, with
  `MAFIATAB_BEHIND_PROXY` (default on), the proxy's X-Forwarded-Proto and
  X-Forwarded-Host trusted.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import secrets
import tempfile
from email.utils import parseaddr
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

PACKAGE_DIR = Path(__file__).resolve().parent


def _flag(*names: str) -> bool:
    for name in names:
        value = os.environ.get(name)
        if value is not None:
            return value.strip().lower() in {"1", "true", "yes", "on"}
    return False


def _flag_default(name: str, default: bool) -> bool:
    return _flag(name) if os.environ.get(name, "").strip() else default


def _seconds(name: str, default: float) -> float:
    """A number from the environment; a value that is not one stops the start with a
    message naming the variable (an env file's `VAR=5  # comment` keeps the comment)."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or number < 0:
        raise ImproperlyConfigured(f"{name} must be a number, not {value[:60]!r}")
    return number


def _database(url: str) -> dict[str, Any]:
    try:
        return dict(dj_database_url.parse(url, conn_max_age=60))
    except ValueError as exc:  # an unknown scheme, a malformed port
        raise ImproperlyConfigured(
            f"DATABASE_URL is not a database address ({exc}); "
            "expected postgres://USER:PASSWORD@HOST:PORT/NAME"
        ) from None


_EMAIL_SCHEMES = {
    "smtp": (False, False, 25),
    "smtp+starttls": (True, False, 587),
    "smtps": (False, True, 465),
}
_EMAIL_EXPECTED = (
    "expected smtp://HOST:PORT, smtp+starttls://USER:PASSWORD@HOST:PORT, "
    "smtps://USER:PASSWORD@HOST:PORT or console://"
)


def email_settings(url: str) -> dict[str, Any]:
    """Django's e-mail settings for `MAFIATAB_EMAIL_URL`; an empty value: no e-mail.
    An unusable value stops the start with one line naming the variable (never
    repeating a password it may hold)."""
    url = url.strip()
    if not url:
        return {"EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend"}
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    if scheme == "console" and url.lower() in {"console://", "console:///"}:
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if scheme not in _EMAIL_SCHEMES:
        shown = f"the scheme {scheme!r}" if scheme else repr(url[:60])
        raise ImproperlyConfigured(
            f"MAFIATAB_EMAIL_URL is not a mail server ({shown}); {_EMAIL_EXPECTED}"
        )
    parts = urlsplit(url)
    use_tls, use_ssl, default_port = _EMAIL_SCHEMES[scheme]
    try:
        port = parts.port or default_port
    except ValueError:
        port = None
    if not parts.hostname or port is None or parts.path not in ("", "/") or parts.query:
        raise ImproperlyConfigured(
            f"MAFIATAB_EMAIL_URL has no usable host and port; {_EMAIL_EXPECTED}"
        )
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port,
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": use_tls,
        "EMAIL_USE_SSL": use_ssl,
    }


def email_sender(value: str) -> str:
    """`MAFIATAB_EMAIL_FROM` (`name@host` or `Name <name@host>`), refused in one line
    when it holds no address."""
    value = value.strip() or "mafiatab@localhost"
    address = parseaddr(value)[1]
    local, _at, domain = address.rpartition("@")
    if not local or not domain or any(c.isspace() for c in address) or "\n" in value:
        raise ImproperlyConfigured(
            f"MAFIATAB_EMAIL_FROM must be an e-mail address, not {value[:60]!r}"
        )
    return value


def data_dir() -> Path:
    """The data directory (created on first use)."""
    path = Path(os.environ.get("MAFIATAB_DATA_DIR", "./data")).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def _secret_key(directory: Path) -> str:
    key = os.environ.get("MAFIATAB_SECRET_KEY") or os.environ.get("SECRET_KEY")
    if key:
        return key
    key_file = directory / "secret_key"
    if key_file.exists():
        return key_file.read_text(encoding="utf-8").strip()
    key = secrets.token_urlsafe(50)
    key_file.write_text(key + "\n", encoding="utf-8")
    key_file.chmod(0o600)
    return key


DATA_DIR = data_dir()
SECRET_KEY = _secret_key(DATA_DIR)
DEBUG = _flag("MAFIATAB_DEBUG", "DJANGO_DEBUG")
ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("MAFIATAB_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]").split(",")
    if host.strip()
]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.admin",
    "django_htmx",
    "axes",
    "csp",
    "ninja",
    "mafiatab.accounts",
    "mafiatab.audit",
    "mafiatab.notifications",
    "mafiatab.tournaments",
    "mafiatab.registrations",
    "mafiatab.games",
    "mafiatab.penalties",
    "mafiatab.standings",
    "mafiatab.api",
    "mafiatab.seating",
    "mafiatab.security",
    "mafiatab.printables",
    "mafiatab.console",
    "mafiatab.announcements",
    "mafiatab.front",
]

MIDDLEWARE = [
    # First: a refusal under /api/ that the API did not answer itself is JSON too.
    "mafiatab.api.middleware.ApiErrorsAsJson",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "mafiatab.notifications.middleware.RememberLanguage",
    "mafiatab.tournaments.middleware.TournamentLocale",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "mafiatab.security.busy.BusyDatabaseMiddleware",
    # Last, as django-axes asks: it turns a refused login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "mafiatab.urls"
WSGI_APPLICATION = "mafiatab.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [PACKAGE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": _database(os.environ["DATABASE_URL"])}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": DATA_DIR / "mafiatab.sqlite3",
            # Kept open like PostgreSQL's: a new connection re-reads the schema.
            "CONN_MAX_AGE": 60,
            # Concurrent writers queue instead of failing: readers never block the
            # writer (WAL), a write transaction takes the write lock when it begins
            # (IMMEDIATE, so it never has to upgrade a read lock and die with
            # "database is locked"), and a writer waits up to `timeout` seconds.
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": _seconds("MAFIATAB_SQLITE_TIMEOUT", 30),
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            },
            # Tests run on a file too (not a shared in-memory database, whose
            # table locks do not wait): concurrency is tested as it is served.
            "TEST": {"NAME": Path(tempfile.gettempdir()) / f"mafiatab-test-{os.getpid()}.sqlite3"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's cache framework keeps what is computed once and shared (the standings and
# their rendered tables). "default" lives in the database, so every worker and every
# server on that database shares it; its table is made by a migration (standings
# 0002). Whatever is kept there is named by the state of the database it was
# computed from (a tournament's standings version), so it is never stale.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "mafiatab_cache",
        "TIMEOUT": 24 * 3600,
        "OPTIONS": {"MAX_ENTRIES": 20000, "CULL_FREQUENCY": 4},
    },
}

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Login throttling (django-axes): the failed logins of one account from one address
# are counted; at MAFIATAB_LOGIN_FAILURES the pair is locked out for
# MAFIATAB_LOGIN_COOLOFF_MINUTES, and a successful login starts the count again.
# The accounts' backend is Django's model backend finding a session's account in one
# plain query (mafiatab.accounts.backends).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "mafiatab.accounts.backends.AccountBackend",
]
AXES_FAILURE_LIMIT = int(_seconds("MAFIATAB_LOGIN_FAILURES", 5))
AXES_COOLOFF_TIME = dt.timedelta(minutes=_seconds("MAFIATAB_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "mafiatab.security.throttling.client_ip"
AXES_LOCKOUT_CALLABLE = "mafiatab.security.throttling.login_locked_out"
AXES_USERNAME_CALLABLE = "mafiatab.security.throttling.login_username"
AXES_VERBOSE = False

# E-mail (password resets) from MAFIATAB_EMAIL_URL; without it the site sends none.
_EMAIL = email_settings(os.environ.get("MAFIATAB_EMAIL_URL", ""))
EMAIL_BACKEND = _EMAIL["EMAIL_BACKEND"]
EMAIL_HOST = _EMAIL.get("EMAIL_HOST", "localhost")
EMAIL_PORT = _EMAIL.get("EMAIL_PORT", 25)
EMAIL_HOST_USER = _EMAIL.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = _EMAIL.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _EMAIL.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _EMAIL.get("EMAIL_USE_SSL", False)
#: Whether the site can send e-mail at all (the password reset page says when not).
EMAIL_CONFIGURED = bool(os.environ.get("MAFIATAB_EMAIL_URL", "").strip())
DEFAULT_FROM_EMAIL = email_sender(os.environ.get("MAFIATAB_EMAIL_FROM", ""))
SERVER_EMAIL = DEFAULT_FROM_EMAIL
#: The site's address as its visitors write it, for the links of e-mails sent by the
#: outbox worker (outside any request).
MAFIATAB_SITE_URL = os.environ.get("MAFIATAB_SITE_URL", "").strip() or "http://127.0.0.1:8000"
#: A mail server that does not answer fails the sending, not the page (seconds).
EMAIL_TIMEOUT = 10
# Heavy exports (the archive, the big PDFs, the XLSX) made at once by one process; one
# more is answered 503 with Retry-After (mafiatab.security.heavy).
MAFIATAB_HEAVY_EXPORTS = _seconds("MAFIATAB_HEAVY_EXPORTS", 2)
if MAFIATAB_HEAVY_EXPORTS < 1 or int(MAFIATAB_HEAVY_EXPORTS) != MAFIATAB_HEAVY_EXPORTS:
    raise ImproperlyConfigured(
        f"MAFIATAB_HEAVY_EXPORTS must be a whole number from 1, not {MAFIATAB_HEAVY_EXPORTS:g}"
    )
MAFIATAB_HEAVY_EXPORTS = int(MAFIATAB_HEAVY_EXPORTS)

LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "tournaments:list"
LOGOUT_REDIRECT_URL = "tournaments:list"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [PACKAGE_DIR / "locale"]
# One date format per language (mafiatab/formats/<language>/formats.py).
FORMAT_MODULE_PATH = ["mafiatab.formats"]
USE_I18N = True
TIME_ZONE = os.environ.get("MAFIATAB_TIME_ZONE", "UTC")
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [PACKAGE_DIR / "static"]
# Static files are served by the application itself, straight from the
# packages' static directories: no collectstatic step is needed.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

SESSION_COOKIE_HTTPONLY = True
# Sessions are read from the shared cache (in the database, one plain query), written
# through to their table: every signed-in page reads one, and every server agrees.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Content-Security-Policy (django-csp): scripts, styles and everything else only from
# the site itself; no inline scripts or styles (behaviours live in static files,
# htmx's indicator styles in site.css), no framing, forms post only to the site.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Production: served over HTTPS only (`mafiatab serve` turns this on unless
# MAFIATAB_PRODUCTION=0). Cookies are sent over HTTPS only, browsers are told to
# come back over HTTPS (HSTS), plain HTTP is redirected.
PRODUCTION = _flag("MAFIATAB_PRODUCTION")
if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = _flag_default("MAFIATAB_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(_seconds("MAFIATAB_HSTS_SECONDS", 365 * 24 * 3600))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _flag_default("MAFIATAB_HSTS_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = _flag_default("MAFIATAB_HSTS_PRELOAD", False)
    # Behind a reverse proxy that terminates TLS (the documented setup): trust its
    # X-Forwarded-Proto and X-Forwarded-Host. Turn off when clients reach gunicorn
    # directly, or they could claim HTTPS.
    if _flag_default("MAFIATAB_BEHIND_PROXY", True):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
        USE_X_FORWARDED_HOST = True
    # Joining the browsers' preload list is the operator's decision
    # (MAFIATAB_HSTS_PRELOAD=1), not a warning of every deployment check.
    SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]

#: The largest request body read into memory (a form or a JSON body; uploaded files
#: are not counted): a protocol is a few KB, so 1 MB is ample and a bigger body is
#: refused at once (413 JSON from the API).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"one_line_refusals": {"()": "mafiatab.security.logging.OneLineRefusals"}},
    "formatters": {"line": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {
        "console": {
            "()": "mafiatab.security.logging.StderrHandler",
            "formatter": "line",
            "filters": ["one_line_refusals"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("MAFIATAB_LOG_LEVEL", "WARNING")},
    # Django's own records go to the one console handler above (not also to its
    # default handlers), so a refused request is logged once, as one line.
    "loggers": {"django": {"handlers": [], "propagate": True}},
}

"""Production settings, security headers, safe exports and quiet refusals."""

from __future__ import annotations

import os
import subprocess
import sys


def _deploy_check(tmp_path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("MAFIATAB_", "DJANGO_"))}
    clean.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "django", "check", "--deploy", "--fail-level", "WARNING"],
        env=clean
        | {"MAFIATAB_DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "mafiatab.settings"}
        | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_deployment_check_is_clean_in_production_settings(tmp_path):
    result = _deploy_check(tmp_path, MAFIATAB_PRODUCTION="1")
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_the_deployment_check_warns_outside_production_settings(tmp_path):
    result = _deploy_check(tmp_path)
    assert result.returncode != 0
    assert "SESSION_COOKIE_SECURE" in result.stderr


def _settings(tmp_path, names: str, **env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("MAFIATAB_", "DJANGO_"))}
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        f"print(*[repr(getattr(s, n, None)) for n in {names.split()!r}], sep='|')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        env=clean
        | {"MAFIATAB_DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "mafiatab.settings"}
        | env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().split("|")


def test_production_trusts_the_proxy_headers_unless_told_it_is_not_behind_one(tmp_path):
    names = "SESSION_COOKIE_SECURE SECURE_PROXY_SSL_HEADER USE_X_FORWARDED_HOST"
    assert _settings(tmp_path, names, MAFIATAB_PRODUCTION="1") == [
        "True",
        "('HTTP_X_FORWARDED_PROTO', 'https')",
        "True",
    ]
    assert _settings(tmp_path, names, MAFIATAB_PRODUCTION="1", MAFIATAB_BEHIND_PROXY="0") == [
        "True",
        "None",
        "False",
    ]
    assert _settings(tmp_path, names) == ["False", "None", "False"]

"""`mafiatab serve --no-outbox` (or MAFIATAB_OUTBOX=0): a server that leaves the
outbox to `mafiatab outbox --watch` running on its own."""

from __future__ import annotations

import argparse
import os

import pytest

from mafiatab.commands import serve


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers())
    return parser.parse_args(["serve", *argv])


def test_a_server_drains_the_outbox_unless_told_not_to(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("MAFIATAB_OUTBOX", raising=False)
    assert _parse([]).outbox is True
    assert _parse(["--no-outbox"]).outbox is False


def test_the_environment_turns_the_drainer_off(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MAFIATAB_OUTBOX", "0")
    assert _parse([]).outbox is False
    monkeypatch.setenv("MAFIATAB_OUTBOX", "1")
    assert _parse([]).outbox is True


def test_serve_hands_the_choice_to_gunicorn(monkeypatch: pytest.MonkeyPatch, tmp_path):
    seen: dict[str, object] = {}
    monkeypatch.setattr(serve, "gunicorn_run", lambda **kwargs: seen.update(kwargs) or 0)
    monkeypatch.setattr(serve, "unapplied_migrations", lambda: [])
    monkeypatch.delenv("MAFIATAB_OUTBOX", raising=False)
    # what `run` sets for the server is put back after the test
    for name in ("MAFIATAB_DATA_DIR", "MAFIATAB_PRODUCTION", "DJANGO_SETTINGS_MODULE"):
        monkeypatch.setenv(name, os.environ.get(name, "mafiatab.settings"))
    args = _parse(["--no-outbox", "--data-dir", str(tmp_path)])
    assert serve.run(args) == 0
    assert seen["outbox"] is False

"""`mafiatab.core` is plain Python: importing every module of it loads no Django."""

from __future__ import annotations

import json
import subprocess
import sys

IMPORT_ALL = """
import importlib, json, pkgutil, sys
import mafiatab.core
names = [m.name for m in pkgutil.walk_packages(mafiatab.core.__path__, "mafiatab.core.")]
for name in names:
    importlib.import_module(name)
django = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
print(json.dumps({"imported": names, "django": django}))
"""


def test_core_never_imports_django():
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    for module in ("validation", "tournament_file", "scoring", "standings", "regulations"):
        assert f"mafiatab.core.{module}" in report["imported"]
    assert report["django"] == [], f"mafiatab.core loaded {report['django']}"

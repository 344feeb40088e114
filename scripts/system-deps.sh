#!/usr/bin/env bash
# Installs the system packages the test suite needs (Debian): Chromium for the
# browser tests, a PostgreSQL server, the libraries and fonts WeasyPrint renders PDF
# with (Pango, HarfBuzz's subsetter, DejaVu for Cyrillic) and poppler-utils to read
# PDFs back in the tests. Idempotent; needs root when something is missing.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || missing+=(postgresql)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
for package in libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
        || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "installing system packages: ${missing[*]}"
    if [ "$(id -u)" -ne 0 ]; then
        echo "need root to install: ${missing[*]}" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

#!/usr/bin/env bash
# Installs the system packages subscriptiond needs to build, test and run, when missing.
# Debian/Ubuntu only (apt-get); anywhere else it says what to install and stops.
set -euo pipefail

needed=()
command -v pkg-config >/dev/null 2>&1 || needed+=(pkg-config)
pkg-config --exists libpq 2>/dev/null || needed+=(libpq-dev)
pkg-config --exists libcurl 2>/dev/null || needed+=(libcurl4-openssl-dev)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || needed+=(postgresql)
command -v psql >/dev/null 2>&1 || needed+=(postgresql-client)
command -v script >/dev/null 2>&1 || needed+=(bsdutils)
command -v curl >/dev/null 2>&1 || needed+=(curl)
# The tests serve TLS with an untrusted certificate through `openssl s_server`.
command -v openssl >/dev/null 2>&1 || needed+=(openssl)
# `make test` checks the alert rules in Deploy/prometheus with promtool (Debian's prometheus
# package; its server is not started)...
if [ "${INSTALL_TEST_TOOLS:-0}" = 1 ]; then
    command -v promtool >/dev/null 2>&1 || needed+=(prometheus)
    # ... and Deploy/caddy/Caddyfile with `caddy validate`.
    command -v caddy >/dev/null 2>&1 || needed+=(caddy)
    # ... and Deploy/systemd/subscriptiond.service with `systemd-analyze security --offline`
    # (Deploy/systemd/check-unit.sh; no running systemd needed).
    command -v systemd-analyze >/dev/null 2>&1 || needed+=(systemd)
    # Tests/contract/check-openapi.py holds the tests' answers to docs/openapi.yaml.
    if ! python3 -c 'import yaml, jsonschema, openapi_spec_validator' >/dev/null 2>&1; then
        echo "install-deps: installing pyyaml, jsonschema and openapi-spec-validator (pip)" >&2
        python3 -m pip install --quiet pyyaml jsonschema openapi-spec-validator >&2 \
            || python3 -m pip install --quiet --break-system-packages pyyaml jsonschema openapi-spec-validator >&2
    fi
    # The webhook tests verify deliveries with an independent Standard Webhooks implementation.
    if ! python3 -c 'import standardwebhooks' >/dev/null 2>&1; then
        echo "install-deps: installing standardwebhooks (pip)" >&2
        python3 -m pip install --quiet standardwebhooks >&2 \
            || python3 -m pip install --quiet --break-system-packages standardwebhooks >&2
    fi
    # Deploy/local/console-browser-test.sh drives the console in headless Chromium through
    # Debian's chromedriver (selenium), and checks every page with axe-core: injected by
    # axe-selenium-python, whose releases for Python < 3.12 ship axe-core 3.1.1, so
    # axe-core-python brings a 4.x axe.min.js (no dependencies) and the newest is used.
    command -v chromium >/dev/null 2>&1 || needed+=(chromium)
    [ -x /usr/bin/chromedriver ] || needed+=(chromium-driver)
    if ! python3 -c 'import selenium, axe_selenium_python, axe_core_python' >/dev/null 2>&1; then
        echo "install-deps: installing selenium, axe-selenium-python and axe-core-python (pip)" >&2
        python3 -m pip install --quiet 'selenium>=4.11,<5' axe-selenium-python axe-core-python >&2 \
            || python3 -m pip install --quiet --break-system-packages 'selenium>=4.11,<5' axe-selenium-python axe-core-python >&2
    fi
fi
# `make image` and Deploy/container/image-test.sh build the container image.
if [ "${INSTALL_TEST_TOOLS:-0}" = 1 ] || [ "${INSTALL_IMAGE_TOOLS:-0}" = 1 ]; then
    command -v podman >/dev/null 2>&1 || needed+=(podman)
fi
if [ "${INSTALL_BENCH_TOOLS:-0}" = 1 ]; then
    command -v wrk >/dev/null 2>&1 || needed+=(wrk)
    command -v pgbench >/dev/null 2>&1 || needed+=(postgresql)
fi

[ ${#needed[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: missing ${needed[*]}; install them with your package manager" >&2
    exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "install-deps: need root (or sudo) to install ${needed[*]}" >&2; exit 1; }
    sudo="sudo"
fi
echo "install-deps: installing ${needed[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${needed[@]}" >/dev/null

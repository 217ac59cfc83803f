# subscriptiond — the only set-up commands are `make run`, `make demo` and `make test`;
# each installs what is missing (apt packages), starts a throwaway PostgreSQL inside the
# checkout (.local/), and goes.

SWIFT        ?= swift
BUILD_FLAGS  ?=
PG           := Deploy/local/postgres.sh
BIN          := .build/debug
# Tests running at once in `make test`. Swift Testing starts every test together by default:
# on two cores that herd (each test a database, a daemon, upstream servers) stalled
# PostgreSQL past the tests' deadlines; 4 at once takes the same wall time (about 200 s).
TEST_WIDTH   ?= 4
TEST_FILTER  ?=
FUZZ_SECONDS ?= 120
FUZZ_RUNS    ?= -1
FUZZ_CONFIGURATION ?= debug

.PHONY: all deps build run test test-ha format lint release image install bench bench-intake bench-reads bench-drain bench-sweep bench-reports bench-retention bench-v2-storage bench-scale bench-eligibility bench-signatures fuzz fuzz-verifier db-start db-stop clean help

all: build

help:
	@echo "make run    local PostgreSQL + migrate + subscriptiond in the foreground (Ctrl-C stops it)"
	@echo "make demo   subscriptiond against appstore-sim with named customers; prints who is entitled and the check"
	@echo "make test   local PostgreSQL + every test suite, the OpenAPI check of their answers, the console in headless Chromium, the install and image tests, the restore drill, the rolling upgrade from the previous release; then stops that cluster"
	@echo "make test-ha  PostgreSQL under Patroni (etcd, synchronous replication): the primary lost mid-burst four ways, nothing acknowledged lost (as root)"
	@echo "make build  build all executables"
	@echo "make format / make lint  rewrite the sources in the house style (.swift-format) / check them (make test does)"
	@echo "make release  dist/subscriptiond-VERSION-linux-ARCH.tar.gz: the executables (static Swift standard library) and what they read"
	@echo "make image  the container image subscriptiond:VERSION (podman; Deploy/container/) from that release, on a debootstrapped Debian bookworm base, with a manifest of its packages"
	@echo "make install PREFIX=/usr/local  install that release under PREFIX (INSTALL.md in the tarball: the service user and settings)"
	@echo "make bench  every performance goal in one run, each as a ratio to a ceiling measured alongside (docs/performance.md)"
	@echo "make bench-intake       intake (v1, signed v2, and with 1,000,000 stored) against C = 1/(1/H + 1/P) and C2 = 1/(1/H + 1/P + 3/E)"
	@echo "make bench-reads        the three read endpoints at 1,000,000 subscribers next to the read ceiling (BENCH_USERS)"
	@echo "make bench-drain        worker drain of 10,000 notifications, verifyReceipt answering after 200 ms, with peak RSS"
	@echo "make bench-sweep        10,000 subscriptions ending at once: the sweep's drain, and intake's p99 meanwhile vs without"
	@echo "make bench-retention    POST /retention/appstore at the App Store's concurrency and beyond (p50, p99; goal p99 < 50 ms)"
	@echo "make bench-v2-storage   what storing a v2 notification costs PostgreSQL with its certificate chains and without (ABBA)"
	@echo "make bench-reports      every report at 1,000,000 purchase chains (p99, goal < 1 s), and what the rollups add to the drain"
	@echo "make bench-scale        reads, intake and the drain at 100,000, 1,000,000 and 10,000,000 subscribers (hours; ~50 GB of disk)"
	@echo "make bench-eligibility  bench-reads with 100,000 subscribers"
	@echo "make bench-signatures   signed-payload verifications per second on one core, full chain vs cached"
	@echo "make fuzz   libFuzzer over the intake's JSON, decoders, date formatting and the v2 verifier (FUZZ_SECONDS, default 120)"
	@echo "make fuzz-verifier      libFuzzer over the v2 verifier alone (FUZZ_RUNS=1000000 for the acceptance run)"
	@echo "make db-stop / make clean   stop the local database / remove .local and .build"

deps:
	@Deploy/local/install-deps.sh

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

db-start: deps
	@$(PG) start

db-stop:
	@$(PG) stop
	@LOCAL_POSTGRES_NAME=postgres-test $(PG) stop

run: build db-start
	@Deploy/local/run.sh

demo: build db-start
	@Deploy/local/demo.sh

# A test process that traps prints only its crashed thread's frames (no registers, no image
# list), so the end of a log says where it trapped.
# The test cluster runs without fsync: no test crashes PostgreSQL itself (the durability
# tests kill subscriptiond), and dozens of CREATE DATABASE at the suite's start otherwise
# wait on the disk.
test: deps lint
	@INSTALL_TEST_TOOLS=1 Deploy/local/install-deps.sh
	@LOCAL_POSTGRES_NAME=postgres-test LOCAL_POSTGRES_FSYNC=off $(PG) start
	@set -a; . .local/postgres-test/env; set +a; \
	rm -f .local/contract-answers.jsonl; \
	$(SWIFT) build --build-tests $(BUILD_FLAGS) && \
	NO_COLOR=1 SWIFT_BACKTRACE=enable=yes,threads=crashed,registers=none,images=none \
	SUBSCRIPTIOND_CONTRACT_RECORD="$(CURDIR)/.local/contract-answers.jsonl" \
	"$$($(SWIFT) build --show-bin-path $(BUILD_FLAGS))/subscriptiondPackageTests.xctest" --testing-library swift-testing \
		--experimental-maximum-parallelization-width $(TEST_WIDTH) $(if $(TEST_FILTER),--filter '$(TEST_FILTER)'); \
	status=$$?; \
	if [ $$status -eq 0 ] && [ -z "$(TEST_FILTER)" ]; then \
		python3 Tests/contract/check-openapi.py docs/openapi.yaml .local/contract-answers.jsonl || status=$$?; fi; \
	if [ $$status -eq 0 ] && [ -z "$(TEST_FILTER)" ]; then Deploy/local/console-browser-test.sh debug || status=$$?; fi; \
	if [ $$status -eq 0 ] && [ -z "$(TEST_FILTER)" ]; then Deploy/package/install-test.sh debug || status=$$?; fi; \
	if [ $$status -eq 0 ] && [ -z "$(TEST_FILTER)" ]; then Deploy/container/image-test.sh debug || status=$$?; fi; \
	if [ $$status -eq 0 ] && [ -z "$(TEST_FILTER)" ]; then Deploy/backup/restore-drill.py debug || status=$$?; fi; \
	if [ $$status -eq 0 ] && [ -z "$(TEST_FILTER)" ]; then Deploy/upgrade/rolling-upgrade-test.py debug || status=$$?; fi; \
	LOCAL_POSTGRES_NAME=postgres-test $(PG) stop; exit $$status

# Not part of `make test` (it needs root for network namespaces, and about 6 minutes):
# Deploy/ha/test-ha.sh, run by .ci/run after `make test`.
test-ha: deps
	@Deploy/ha/test-ha.sh

# The house style (.swift-format, swift-format as the toolchain ships it): `make format`
# rewrites the sources, `make lint` (the first step of `make test`) fails on any difference.
FORMATTED := Sources Tests Plugins Benchmarks Package.swift

format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMATTED)

lint:
	@$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED) \
		|| { echo "lint: the sources differ from .swift-format's style; make format rewrites them" >&2; exit 1; }
	@$(SWIFT) package dump-package | python3 Deploy/lint/check-imports.py \
		|| { echo "lint: Package.swift's dependencies differ from the targets' imports" >&2; exit 1; }

PREFIX ?= /usr/local

release: deps
	@Deploy/package/build-tarball.sh release

image: release
	@INSTALL_IMAGE_TOOLS=1 Deploy/local/install-deps.sh
	@Deploy/container/build-image.sh

install: release
	@set -e; tarball="$$(ls -t dist/subscriptiond-*-linux-*.tar.gz | head -n 1)"; work="$$(mktemp -d)"; \
	tar -C "$$work" -xzf "$$tarball"; "$$work"/subscriptiond-*/install.sh --prefix "$(PREFIX)"; rm -rf "$$work"

bench: deps
	Benchmarks/all.sh release

bench-intake: deps
	Benchmarks/intake-vs-pgbench.sh release

bench-reads: deps
	Benchmarks/reads.sh release

# The former eligibility-only benchmark is part of bench-reads; kept as its smaller run.
bench-eligibility: deps
	BENCH_USERS=$${BENCH_USERS:-100000} Benchmarks/reads.sh release

bench-signatures: deps
	Benchmarks/signature-verify.sh

bench-drain: deps
	Benchmarks/drain.sh release

bench-sweep: deps
	Benchmarks/sweep.sh release

bench-reports: deps
	Benchmarks/reports.sh release

bench-retention: deps
	Benchmarks/retention.sh release

bench-v2-storage: deps
	Benchmarks/v2-storage.sh release

bench-scale: deps
	Benchmarks/scale.sh release

# Not part of `make test`: a bounded libFuzzer run (see Fuzz/run.sh).
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_CONFIGURATION=$(FUZZ_CONFIGURATION) Fuzz/run.sh

# The v2 verifier alone (every execution a verification), e.g. FUZZ_RUNS=1000000 FUZZ_SECONDS=3600.
fuzz-verifier: deps
	FUZZ_HARNESS=verifier FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_CONFIGURATION=$(FUZZ_CONFIGURATION) Fuzz/run.sh

clean:
	-@$(PG) stop
	-@LOCAL_POSTGRES_NAME=postgres-test $(PG) stop
	-@LOCAL_POSTGRES_NAME=postgres-bench $(PG) stop
	-@Deploy/ha/cluster.sh down 2>/dev/null
	rm -rf .local .build

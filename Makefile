# subscriptiond — the only set-up commands are `make run`, `make demo` and `make test`;
# each installs what is missing (apt packages), starts a throwaway PostgreSQL inside the
# checkout (.local/), and goes.

SWIFT        ?= swift
BUILD_FLAGS  ?=
PG           := Deploy/local/postgres.sh
BIN          := .build/debug
FUZZ_SECONDS ?= 120
FUZZ_RUNS    ?= -1
FUZZ_CONFIGURATION ?= debug

.PHONY: all deps build run test bench bench-intake bench-eligibility bench-signatures fuzz db-start db-stop clean help

all: build

help:
	@echo "make run    local PostgreSQL + migrate + subscriptiond in the foreground (Ctrl-C stops it)"
	@echo "make demo   subscriptiond against appstore-sim with named customers; prints who is entitled and the check"
	@echo "make test   local PostgreSQL + every test suite, then stops that cluster"
	@echo "make build  build all executables"
	@echo "make bench  intake rate (wrk) next to PostgreSQL's insert rate (pgbench), release build"
	@echo "make bench-intake  the same, v1 and signed v2 bodies, then v1 again with 1,000,000 notifications stored"
	@echo "make bench-eligibility  p99 of POST /v1/eligibility with 100,000 subscribers loaded"
	@echo "make bench-signatures   signed-payload verifications per second on one core, full chain vs cached"
	@echo "make fuzz   libFuzzer over the intake's JSON, decoders and date formatting (FUZZ_SECONDS, default 120)"
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

# The test cluster runs without fsync: no test crashes PostgreSQL itself (the durability
# tests kill subscriptiond), and dozens of CREATE DATABASE at the suite's start otherwise
# wait on the disk.
test: deps
	@LOCAL_POSTGRES_NAME=postgres-test LOCAL_POSTGRES_FSYNC=off $(PG) start
	@set -a; . .local/postgres-test/env; set +a; \
	$(SWIFT) build --build-tests $(BUILD_FLAGS) && $(SWIFT) test --skip-build $(BUILD_FLAGS); \
	status=$$?; LOCAL_POSTGRES_NAME=postgres-test $(PG) stop; exit $$status

bench: bench-intake

bench-intake: deps
	Benchmarks/intake-vs-pgbench.sh release

bench-eligibility: deps
	Benchmarks/eligibility-latency.sh release

bench-signatures: deps
	Benchmarks/signature-verify.sh

# Not part of `make test`: a bounded libFuzzer run (see Fuzz/run.sh).
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_CONFIGURATION=$(FUZZ_CONFIGURATION) Fuzz/run.sh

clean:
	-@$(PG) stop
	-@LOCAL_POSTGRES_NAME=postgres-test $(PG) stop
	-@LOCAL_POSTGRES_NAME=postgres-bench $(PG) stop
	rm -rf .local .build

#!/usr/bin/env bash
# Builds IntakeFuzzer with libFuzzer and AddressSanitizer and fuzzes the intake's readers and
# the version 2 verifier for FUZZ_SECONDS (default 120), starting from every JSON file under
# the shared real-world fixtures (v1, verifyReceipt and v2 alike) copied into
# .local/fuzz-corpus, plus unpacked-JWS seeds written by Fuzz/signed-seeds.py.
#
# Crash inputs land in .local/fuzz-artifacts/; replay one without libFuzzer with
#   swift build --product IntakeFuzzer && .build/debug/IntakeFuzzer <file>
# Extra libFuzzer flags go in FUZZ_FLAGS, e.g. FUZZ_FLAGS="-fork=1 -ignore_crashes=1" to
# keep going after a crash; INTAKE_FUZZ_SKIP_KNOWN_DATE_TRAP=1 steps around the known
# PostgresTimestamp.format trap to look for others.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-120}"
# FUZZ_RUNS stops after that many executions (the acceptance run uses 1000000);
# FUZZ_CONFIGURATION=release fuzzes an optimised build, several times faster.
runs="${FUZZ_RUNS:--1}"
configuration="${FUZZ_CONFIGURATION:-debug}"
scratch="${FUZZ_SCRATCH_PATH:-.build-fuzz}"
fixtures="${FUZZ_FIXTURES:-../shared/fixtures/realworld}"
corpus=.local/fuzz-corpus
artifacts=.local/fuzz-artifacts
build=(swift build --scratch-path "$scratch" -c "$configuration"
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DINTAKE_LIBFUZZER --product IntakeFuzzer)

"${build[@]}"
binary="$("${build[@]}" --show-bin-path)/IntakeFuzzer"

# FUZZ_HARNESS=verifier (make fuzz-verifier) sends every input to the v2 verifier alone,
# from the signed seeds only, so libFuzzer's execution count is the verifier's.
if [ "${FUZZ_HARNESS:-}" = verifier ]; then
    corpus=.local/fuzz-corpus-verifier
    mkdir -p "$corpus" "$artifacts"
    python3 Fuzz/signed-seeds.py "$fixtures" "$corpus"
    cp "$fixtures"/v2-genuine/*.json "$corpus/"
    cp Fuzz/seeds/*.json "$corpus/"
    export FUZZ_HARNESS
    # Bare JSON payloads are wrapped in this genuine notification's header and signature.
    export FUZZ_TEMPLATE_JWS_FILE="$fixtures/v2-genuine/DID_RENEW_2025-10-01_sandbox.json"
    export SWIFT_BACKTRACE=enable=no
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    # Leak detection stays off here: LeakSanitizer reports a 24-byte object inside
    # swift-crypto's P-384 public key wrapper whenever a certificate is parsed (Apple's root
    # is P-384), which is not ours to fix and would stop every run at its first input.
    # shellcheck disable=SC2086
    exec "$binary" "$corpus" -dict=Fuzz/appstore.dict -max_total_time="$seconds" -runs="$runs" -detect_leaks=0 \
        -max_len=65536 -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$artifacts/" -print_final_stats=1 ${FUZZ_FLAGS:-}
fi

mkdir -p "$corpus" "$artifacts"
largest=0
if [ -d "$fixtures" ]; then
    while IFS= read -r -d '' file; do
        folder="$(basename "$(dirname "$file")")"
        cp "$file" "$corpus/$folder-$(basename "$file")"
        size="$(wc -c < "$file")"
        [ "$size" -gt "$largest" ] && largest="$size"
    done < <(find "$fixtures" -name '*.json' -print0)
else
    echo "no fixtures at $fixtures; fuzzing from an empty corpus" >&2
fi
# Decoded v2 payloads (what the signature verifier hands to the decoders), from the genuine fixtures.
cp Fuzz/seeds/*.json "$corpus/"
# The verifier's seeds: the genuine notifications unpacked into JSON, and signedDate at every edge.
[ -d "$fixtures" ] && python3 Fuzz/signed-seeds.py "$fixtures" "$corpus"
# Room for the largest fixture to grow a little under mutation.
max_len=$(( largest * 2 > 65536 ? largest * 2 : 65536 ))

# Leak detection is off, as for the verifier above: inputs that reach the verifier parse
# certificates, and swift-crypto's P-384 key wrapper is reported as a 24-byte leak each time.
# Swift's own crash backtracer trips AddressSanitizer; libFuzzer prints the stack instead.
export SWIFT_BACKTRACE=enable=no
# The same leak is reported once more at exit, by AddressSanitizer itself.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# shellcheck disable=SC2086
exec "$binary" "$corpus" \
    -dict=Fuzz/appstore.dict \
    -max_total_time="$seconds" \
    -runs="$runs" \
    -max_len="$max_len" \
    -timeout=10 \
    -rss_limit_mb=4096 \
    -detect_leaks=0 \
    -artifact_prefix="$artifacts/" \
    -print_final_stats=1 \
    ${FUZZ_FLAGS:-}

#!/usr/bin/env bash
# Builds and runs fuzz targets one after another (one libFuzzer process, one job at a time):
#   fuzz/run.sh SECONDS TARGET...
# Everything lives under .build-fuzz/: the instrumented build, seeds/<target> (fuzz/seeds.py,
# remade when the script changes), corpus/<target> (what the fuzzer found interesting; kept
# between runs), findings/<target> (crash-*, timeout-*, oom-*, leak-* inputs), logs/<target>.log
# (libFuzzer's whole output). Exit 1 if any target found something, after running all of them.
# FUZZ_SEED=N fixes libFuzzer's random seed: from the same seeds, a run then tries the same
# inputs in the same order on any machine (CI uses it, so what it runs was run here first).
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=$1; shift
SWIFT=${SWIFT:-swift}
out=.build-fuzz
mkdir -p "$out/logs"

# Longest input per target: a few records, a small zip, one value, one query.
max_len() {
  case $1 in
    xml|zip) echo 65536 ;;
    gpx) echo 32768 ;;
    dates-numbers) echo 128 ;;
    healthql) echo 2048 ;;
    *) echo 65536 ;;
  esac
}

failed=()
for target in "$@"; do
  product=fuzz-$target
  echo "== fuzz $target: building $product (-sanitize=fuzzer,address)"
  # One -sanitize=fuzzer,address for swiftc, not SwiftPM's --sanitize=fuzzer --sanitize=address:
  # given two -sanitize flags, the Swift 6.3 driver passes only one of them on to the compiler
  # (which one varies from build to build), so a module could be built without coverage and
  # the fuzzer would run blind. -DFUZZING leaves main to libFuzzer.
  "$SWIFT" build -c release --product "$product" --scratch-path "$out" \
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -enable-testing 2>&1 | grep -v "Cannot export local symbol" | grep -E "error|warning:|Compiling fuzz|complete"
  built=${PIPESTATUS[0]}
  binary=$out/release/$product
  # A failed build must not fuzz the binary an earlier build left.
  [ "$built" -eq 0 ] && [ -x "$binary" ] || { echo "fuzz $target: build failed"; failed+=("$target"); continue; }

  seeds=$out/seeds/$target corpus=$out/corpus/$target findings=$out/findings/$target
  if [ ! -d "$seeds" ] || [ fuzz/seeds.py -nt "$seeds" ]; then
    rm -rf "$seeds"
    python3 fuzz/seeds.py "$out/seeds" "$target"
  fi
  mkdir -p "$corpus" "$findings"
  log=$out/logs/$target.log
  echo "== fuzz $target: $seconds s, max_len $(max_len "$target"), log $log, findings in $findings/"
  # Leaks are checked (a parser that leaks per input is a finding); -timeout: an input that
  # takes 10 s is a hang. Only the periodic status lines and anything that is not a new-input
  # line reach the terminal; the log has everything.
  # Swift's own backtracer is off: libFuzzer reports the trap (with ASan's stack trace), and the
  # backtracer's reads of the crashed process's memory would trip ASan with a report of its own.
  SWIFT_BACKTRACE=enable=no "$binary" "$corpus" "$seeds" \
      -dict="fuzz/$target.dict" -max_len="$(max_len "$target")" -max_total_time="$seconds" \
      -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1 ${FUZZ_SEED:+-seed=$FUZZ_SEED} \
      -artifact_prefix="$findings/" 2>&1 | tee "$log" | grep -vE "^#[0-9]+[[:space:]]+(NEW|REDUCE)|# Uses: "
  status=${PIPESTATUS[0]}

  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -oE "cov: [0-9]+ ft: [0-9]+" "$log" | tail -1)
  line="fuzz $target: ${runs:-?} executions, ${speed:-?} exec/s, ${cov:-cov ?}, exit $status"
  echo "$line" | tee -a "$out/summary.txt"
  if [ "$status" -ne 0 ]; then
    echo "fuzz $target: FOUND something: $(ls -t "$findings" | head -1) in $findings/ (replay: $binary FILE)"
    failed+=("$target")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings or failures in: ${failed[*]}"
  exit 1
fi

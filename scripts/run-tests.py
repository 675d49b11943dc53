#!/usr/bin/env python3
"""Runs the built XCTest bundle on every core: the suite's classes in batches, a process per batch.

Almost every end-to-end test spends its time in one thread (a `healthetl` run, a Python check,
Chromium), so on CI's two cores two batches at a time take about half the time of `swift test`,
which runs the bundle once. `swift test` cannot run twice at once (it locks the scratch folder),
so this script does what it does on Linux: it runs `<scratch>/debug/HealthETLPackageTests.xctest`
with a comma-separated list of test names and NO_COLOR=1.

A class is never split (its tests may share what `setUp` builds). The slow classes go first so
that the workers end together: `scripts/test-seconds.json` holds each class's seconds from an
earlier run, by class name (`--record` rewrites it; a class missing from it counts a second per test). Each
batch's output is printed whole when it ends, so the log reads like `swift test`'s. The run fails
when a batch fails or when the tests that ran are not exactly the ones listed (a crash mid-batch).

  scripts/run-tests.py [--scratch-path .build] [--skip REGEX ...] [--jobs N] [--record]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HINTS = os.path.join(ROOT, "scripts", "test-seconds.json")
# Classes below this many seconds share a process with others up to it (a process costs ~0.2 s).
BATCH_SECONDS = 10.0


def listed_tests(bundle):
    out = subprocess.run([bundle, "--list-tests"], capture_output=True, text=True, check=True).stdout
    return [line.strip() for line in out.splitlines() if re.match(r"^\w+\.\w+/\w+$", line.strip())]


def batches(tests, hints):
    classes = {}
    for test in tests:
        classes.setdefault(test.split("/")[0], []).append(test)
    weight = {name: hints.get(name.split(".")[1], float(len(members))) for name, members in classes.items()}
    ordered = sorted(classes, key=lambda name: (-weight[name], name))
    result, small, small_seconds = [], [], 0.0
    for name in ordered:
        if weight[name] >= BATCH_SECONDS:
            result.append([name])
            continue
        small.append(name)
        small_seconds += weight[name]
        if small_seconds >= BATCH_SECONDS:
            result.append(small)
            small, small_seconds = [], 0.0
    if small:
        result.append(small)
    return [(names, [t for name in names for t in classes[name]]) for names in result]


def executed_count(output):
    """The count of the outermost suite ('Selected tests'), the last 'Executed' line."""
    counts = re.findall(r"Executed (\d+) tests?, with", output)
    return int(counts[-1]) if counts else 0


def class_seconds(output):
    seconds = {}
    for name, value in re.findall(r"Test Case '(\w+)\.\w+' (?:passed|failed|skipped) \(([\d.]+) seconds\)", output):
        seconds[name] = seconds.get(name, 0.0) + float(value)
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scratch-path", default=".build")
    parser.add_argument("--skip", action="append", default=[], help="leave out tests matching this regex")
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("TEST_JOBS", os.cpu_count() or 2)))
    parser.add_argument("--record", action="store_true", help=f"write each class's seconds to {HINTS}")
    args = parser.parse_args()

    found = glob.glob(os.path.join(args.scratch_path, "debug", "*PackageTests.xctest"))
    if len(found) != 1:
        sys.exit(f"run-tests: no single test bundle in {args.scratch_path}/debug ({found}): build it with swift build --build-tests")
    bundle = os.path.abspath(found[0])
    listed = listed_tests(bundle)
    if not listed:
        sys.exit(f"run-tests: {bundle} --list-tests named no test")
    tests = [t for t in listed if not any(re.search(skip, t) for skip in args.skip)]
    hints = json.load(open(HINTS)) if os.path.exists(HINTS) else {}
    work = batches(tests, hints)
    env = dict(os.environ, NO_COLOR="1")
    print(f"run-tests: {len(tests)} tests in {len(work)} batches, {args.jobs} at a time ({bundle})", flush=True)

    lock = threading.Lock()
    failures, seconds, ran = [], {}, [0]
    started = time.monotonic()

    def worker():
        while True:
            with lock:
                if not work:
                    return
                names, members = work.pop(0)
            begin = time.monotonic()
            run = subprocess.run([bundle, ",".join(members)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True, errors="replace", env=env, cwd=ROOT)
            took = time.monotonic() - begin
            count = executed_count(run.stdout)
            ok = run.returncode == 0 and count == len(members)
            with lock:
                ran[0] += count
                seconds.update(class_seconds(run.stdout))
                print(run.stdout, end="" if run.stdout.endswith("\n") else "\n")
                status = "ok" if ok else f"FAILED (exit {run.returncode}, {count} of {len(members)} tests ran)"
                print(f"run-tests: {', '.join(names)}: {status} in {took:.1f} s", flush=True)
                if not ok:
                    failures.append((names, status, re.findall(r"^.*(?:error:|Test Case '.*' failed).*$", run.stdout, re.M)))

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    if args.record:
        with open(HINTS, "w") as f:
            json.dump({name: round(value, 1) for name, value in sorted(seconds.items())}, f, indent=1)
            f.write("\n")
    print(f"run-tests: {ran[0]} of {len(tests)} tests ran in {time.monotonic() - started:.0f} s, {len(failures)} batches failed")
    for names, status, lines in failures:
        print(f"  {', '.join(names)}: {status}")
        for line in lines[:20]:
            print(f"    {line}")
    sys.exit(1 if failures or ran[0] != len(tests) else 0)


if __name__ == "__main__":
    main()

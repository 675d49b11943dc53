# HealthETL — the commands a fresh machine needs (after the README's install line):
#   make import EXPORT=sample-data/export.xml
#   make test       the whole suite          make check   the unit tests only (about a minute)
SWIFT ?= swift
EXPORT ?= sample-data/export.xml
OUT ?= out
PIPELINE ?= pipelines/default.json
VENV ?= .venv
BIN = .build/release/healthetl
# What `healthetl --version` and the run log say was built (Package.swift hands them to the
# BuildStamp C file only): the commit, `-dirty` for uncommitted changes, and the UTC day.
export HEALTHETL_COMMIT ?= $(shell git describe --always --dirty --abbrev=12 --match=NONE 2>/dev/null)
export HEALTHETL_BUILD_DATE ?= $(shell date -u +%Y-%m-%d)
VERSION := $(shell sed -n 's/.*static let version = "\(.*\)"/\1/p' Sources/HealthPipeline/Release.swift)
RELEASE = dist/healthetl-$(VERSION)-linux-$(shell uname -m)
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: build import nightly test check test-asan test-tsan venv bench clean cohort fuzz dist install uninstall

build:
	$(SWIFT) build -c release --product healthetl

# The release (issues 43, 59): $(RELEASE).tar.gz, dist/healthetl_VERSION-1_ARCH.deb and
# dist/healthetl-VERSION-py3-none-manylinux_2_G_ARCH.whl, one binary that needs no Swift
# toolchain and no -dev package (scripts/dist.sh: relinked statically from make build's objects)
# in all three, with its man page, completions, pipelines, systemd units, LICENSE and README;
# dist/SHA256SUMS over the three. docs/RELEASING.md.
dist: build
	scripts/dist.sh

# Installs the release folder that make dist builds (the tarball's own Makefile does the work,
# so installing from source and from the tarball are one thing); uninstall removes exactly that.
install: dist
	$(MAKE) -C $(RELEASE) install PREFIX="$(abspath $(PREFIX))" DESTDIR="$(DESTDIR)"

uninstall:
	$(MAKE) -C packaging uninstall PREFIX="$(abspath $(PREFIX))" DESTDIR="$(DESTDIR)"

import: build
	$(BIN) import "$(EXPORT)" --out "$(OUT)" --pipeline "$(PIPELINE)"

# One person: make nightly EXPORT=export.zip. A household: make nightly EXPORTS=DIR imports every
# NAME.zip, NAME.xml or NAME/ in DIR as person NAME (two at a time; the exit code is the worst one).
EXPORTS ?=
nightly: build
ifeq ($(EXPORTS),)
	$(BIN) import "$(EXPORT)" --out "$(OUT)" --pipeline pipelines/nightly.json --quiet
else
	$(BIN) import-all "$(EXPORTS)" --out "$(OUT)" --pipeline pipelines/nightly.json --jobs 2 --quiet
endif

# Python is tooling only: pyarrow/duckdb read our Parquet files in tests, openpyxl reads the
# spreadsheet LibreOffice makes from our CSV; pyspark drives the cohort job (the executors run
# healthetl, which parses and counts every byte of health data); mcp and neurokit2 are for the
# tests of the MCP server and of the heart-rate-variability figures; pypdf reads the text of each
# page LibreOffice prints of the workbook; fhir.resources parses the FHIR output (R4B models). The README's install line
# names these too (scripts/check-install-line.py keeps them in step).
venv: $(VENV)/.ready
$(VENV)/.ready: Makefile
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet pyarrow duckdb openpyxl pyspark mcp neurokit2 pypdf fhir.resources pipx uv
	touch $@

# Cohorts (issue 24): every export in EXPORTS (NAME.zip, NAME.xml or NAME/) as person NAME, with
# Apache Spark in local mode (SPARK_MASTER to change it): OUT/dataset, OUT/status, OUT/cohort.
# The executors get the release tarball (make dist) through spark.archives: no Swift on them.
# On a cluster: spark-submit --archives <the tarball> spark/cohort_job.py (docs/PEOPLE.md).
cohort: dist venv
	$(VENV)/bin/python spark/cohort_job.py --exports "$(EXPORTS)" --out "$(OUT)" --release $(RELEASE).tar.gz

# XCTest only (no Swift Testing suites). scripts/run-tests.py runs the built bundle in batches of
# classes, one per core at a time (swift test runs one process and locks .build), and fails when
# a batch fails or a listed test did not run. The release tarball first: ReleaseTarballTests and
# the Spark cohort test run it.
test: venv dist
	$(SWIFT) build -c release   # the whole package, as the README says it builds (issue 57)
	python3 scripts/check-module-graph.py
	python3 scripts/check-test-targets.py
	python3 scripts/check-public-api.py
	python3 scripts/check-install-line.py
	python3 scripts/check-docs.py
	$(SWIFT) build --build-tests
	HEALTHETL_PYTHON=$(CURDIR)/$(VENV)/bin/python python3 scripts/run-tests.py

# The fast tier for the edit-test loop: the unit targets, that is every test target but
# HealthETLEndToEndTests (the healthetl binary on generated or real exports, Python tooling,
# Chromium, LibreOffice, Spark). scripts/check-test-targets.py holds the layout (no unit target
# runs the binary or the generator), so no list of slow tests can go stale.
# `make test` runs everything; run it before handing work over.
END_TO_END_TESTS = HealthETLEndToEndTests
check: venv
	python3 scripts/check-module-graph.py
	python3 scripts/check-test-targets.py
	python3 scripts/check-public-api.py
	python3 scripts/check-install-line.py
	python3 scripts/check-docs.py
	$(SWIFT) build --build-tests
	HEALTHETL_PYTHON=$(CURDIR)/$(VENV)/bin/python python3 scripts/run-tests.py --skip '^$(END_TO_END_TESTS)\.'

# The whole suite under AddressSanitizer or ThreadSanitizer, each in a build folder of its own;
# the tests run the instrumented healthetl too (CI runs test-asan). There is no UBSan for Swift
# (swiftc refuses -sanitize=undefined): what it checks in C (overflow, bounds, misaligned or
# exclusive access) Swift's debug builds, which the suite runs, trap on by themselves, and we
# compile no C of our own. Leak checking is off: LeakSanitizer reports allocations inside
# Foundation (String(contentsOf:)) and XCTest, not ours.
# These classes test the release's binary, not the instrumented one (the Spark job's executors
# run it, in local mode and on a standalone cluster; ReleaseTarballTests extracts it; the .deb,
# the wheel, the units and SHA256SUMS, issue 59): make test runs them, test-asan leaves them out
# (they took a sixth of CI's time under ASan and instrumented nothing they test).
RELEASE_BINARY_TESTS = CohortJobTests CohortClusterTests ReleaseTarballTests DebianPackageTests PythonWheelTests NightlyUnitsTests ReleaseArtifactsTests
# The two fault loops repeat a command once per failing file operation (FaultInjectionTests: the
# import, 337 s under ASan; CommandFaultTests: people set/remove, reset, report, import-all,
# 187 s): the same file code again and again, with the sanitizer's cost on every run. make test
# runs both; CI's time budget (40 min) does not hold them twice. HealthConnectNightlyTests is ten
# imports of the same small export through the same code (the Health Connect reader, the merge),
# which the other Health Connect classes run under ASan once each, the hostile databases among them.
ASAN_SKIPPED_TESTS = $(RELEASE_BINARY_TESTS) FaultInjectionTests CommandFaultTests HealthConnectNightlyTests \
	RealExportsTests.testEveryRealExportReadsTheSameWithoutAZoneAsInItsZone FHIRTests.testAGeneratedYearInFHIR
empty :=
space := $(empty) $(empty)
test-asan: venv
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=0 HEALTHETL_PYTHON=$(CURDIR)/$(VENV)/bin/python python3 scripts/run-tests.py --scratch-path .build-asan --skip '$(subst $(space),|,$(strip $(ASAN_SKIPPED_TESTS)))'


test-tsan: venv
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	HEALTHETL_PYTHON=$(CURDIR)/$(VENV)/bin/python python3 scripts/run-tests.py --scratch-path .build-tsan

# Speed and memory (issue 6), not part of `make test`: the libxml2 parse floor, the full import with
# every output, the nightly re-run and healthkit-to-sqlite (venv under .build/bench) on cached
# 1-year and 4-year exports (~1.3 GB under .build/bench), and the Health Connect import of 1- and
# 4-year databases against sqlite3's scan of them. Results: .build/bench/results.{md,json}.
# e.g. make bench BENCH_FLAGS="--runs 2 --sizes 1y --scratch-path /tmp/build"
BENCH_FLAGS ?=
bench:
	python3 bench/bench.py --swift "$(SWIFT)" $(BENCH_FLAGS)

# Fuzzing (issue 26): libFuzzer with AddressSanitizer on each parser of untrusted bytes, the
# targets built one after another and then run FUZZ_JOBS at a time (default: one per core; each
# fuzzer is one process on one core). `make fuzz` runs every target for FUZZ_SECONDS (CI);
# `make fuzz TARGET=xml SECONDS=60` one. Fails if a target found a crash, hang, leak or disagreement; the input is
# left in .build-fuzz/findings/TARGET/ (replay: .build/debug/fuzz-TARGET FILE). See fuzz/run.sh.
FUZZ_TARGETS = dates-numbers healthql mcp line-editor ecg clinical health-connect gpx zip xml
FUZZ_SECONDS ?= 30
TARGET ?=
FUZZ_SEED ?=
fuzz:
	SWIFT="$(SWIFT)" FUZZ_SEED="$(FUZZ_SEED)" fuzz/run.sh $(if $(SECONDS),$(SECONDS),$(FUZZ_SECONDS)) $(if $(TARGET),$(TARGET),$(FUZZ_TARGETS))

clean:
	rm -rf .build $(OUT)

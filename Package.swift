// swift-tools-version:6.0
// HealthETL: one target per pipeline stage, a small core, the store, system C libraries, a thin CLI.
// Which target depends on which, and why: docs/ARCHITECTURE.md, whose drawing of the graph
// scripts/check-module-graph.py checks against this file (make test, make check).

import Foundation
import PackageDescription

// What `healthetl --version` and the run log say the binary was built from: the Makefile sets
// HEALTHETL_COMMIT and HEALTHETL_BUILD_DATE (docs/RELEASING.md). Only the BuildStamp C file
// sees them, so a new commit recompiles that one file and relinks. Kept to safe characters: they
// become C tokens.
func stamp(_ name: String) -> CSetting? {
    guard let value = ProcessInfo.processInfo.environment[name],
          !value.isEmpty, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }) else { return nil }
    return .define(name, to: value)
}

// Release builds: cross-module optimization specializes generic code where other modules use
// it, but not a `package` declaration: the per-sample calls into HealthDedupe's identity set and
// the analytics' PriorityMerger<Tag> are `@inlinable` and `@_spi(Load)` / `@_spi(Analytics)
// public` for that (unspecialized, the merger's metadata lookups were 3% of an import; issue 62);
// exclusivity is checked at compile time only (debug builds, which the tests use, keep the
// run-time checks: the per-access bookkeeping cost the parser a few percent).
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .unsafeFlags(["-cross-module-optimization", "-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

let package = Package(
    name: "HealthETL",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "healthetl", targets: ["healthetl"]),
        .library(name: "HealthETL", targets: ["HealthPipeline", "HealthStore", "HealthPeople", "HealthQL"]),
        // The general libraries, for any Swift program.
        .library(name: "SQLite", targets: ["SQLite"]),
        .library(name: "Parquet", targets: ["Parquet"]),
        .library(name: "Archive", targets: ["Archive"]),
        // make bench: the libxml2 SAX2 parse floor (counts elements only).
        .executable(name: "healthetl-xmlfloor", targets: ["xmlfloor"]),
    ],
    targets: [
        // System C libraries (Debian: libxml2-dev libsqlite3-dev zlib1g-dev).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),

        // General libraries: no health knowledge, no HealthCore; usable by any Swift program.
        // Private files written beside and renamed into place, and unlinked spill files.
        .target(name: "PrivateFiles", swiftSettings: strict),
        // A thin, safe SQLite layer: Database, Statement, SQLValue, transactions, SQLiteError.
        .target(name: "SQLite", dependencies: ["CSQLite"], swiftSettings: strict),
        // Archives: zip read (stored, deflate, ZIP64, hostile input), zip write (streamed), gzip.
        .target(name: "Archive", dependencies: ["PrivateFiles", "CZlib"], swiftSettings: strict),
        // A CSV writer: RFC 4180 or Excel's semicolon dialect, typed columns, fast number and date cells.
        .target(name: "CSV", dependencies: ["PrivateFiles"], swiftSettings: strict),
        // An Apache Parquet writer: schema, encoders, Thrift footer, statistics, row groups.
        .target(name: "Parquet", dependencies: ["PrivateFiles", "Archive"], swiftSettings: strict),

        // An Office Open XML (.xlsx) writer: sheets streamed into a zip, frozen header, autofilter, formats.
        .target(name: "Spreadsheet", dependencies: ["PrivateFiles", "Archive"], swiftSettings: strict),

        // The build's commit and date (C: defines from the environment, see `stamp` above).
        .target(name: "BuildStamp", cSettings: [stamp("HEALTHETL_COMMIT"), stamp("HEALTHETL_BUILD_DATE")].compactMap { $0 }),

        // Core: the typed model, the channel, shared utilities. No C libraries.
        .target(name: "HealthCore", swiftSettings: strict),
        // Presentation: how a stored value reads in the outputs (column names and titles in the
        // person's units). No store knowledge.
        .target(name: "HealthPresentation", dependencies: ["HealthCore"], swiftSettings: strict),
        // Stages.
        .target(name: "HealthIngest", dependencies: ["HealthCore", "Archive", "CLibXML2"], swiftSettings: strict),
        // The second ingest: Android's Health Connect export (its SQLite database, opened as an
        // untrusted file) into the same batches as the Apple reader's.
        .target(name: "HealthConnectIngest", dependencies: ["HealthCore", "SQLite", "Archive", "PrivateFiles"],
                swiftSettings: strict),
        .target(name: "HealthNormalize", dependencies: ["HealthCore"], swiftSettings: strict),
        // Dedupe, one folder per kind of duplicate it removes: AlreadyImported/ (the anchors, run
        // by ingest), ExactCopies/ (identities, stamped on the normalize thread; the set of those
        // written, run by the store's load, spilled to PrivateFiles' unlinked files), Overlaps/
        // (sources by priority, run by the analytics).
        .target(name: "HealthDedupe", dependencies: ["HealthCore", "PrivateFiles"], swiftSettings: strict),
        .target(name: "HealthAggregate", dependencies: ["HealthCore"], swiftSettings: strict),
        // The analytics algorithm: each stored series through the priority merge (dedupe) and the
        // day, sleep and heart-rate stages (aggregate) into the analytics ledger; the vitals and
        // data-quality tables computed from the store (their SQL is HealthStore's).
        .target(name: "HealthAnalytics", dependencies: ["HealthCore", "HealthAggregate", "HealthDedupe", "HealthStore", "SQLite"],
                swiftSettings: strict),
        // The store: schema, the load stage (the bulk sink, dropping exact copies through
        // HealthDedupe's identity set), sorted spill runs, series reader, merger, the analytics,
        // vitals and quality tables' reads and writes, and the read API (HealthStore). Everything
        // that reads or writes a store imports this, not the emitters.
        .target(name: "HealthStore", dependencies: ["HealthCore", "HealthDedupe", "SQLite", "PrivateFiles"], swiftSettings: strict),
        // Emit: a store into files (CSV, Parquet tables, the samples file, the exporter); the
        // store's own writing is the load (HealthStore's sink), never called emit.
        .target(name: "HealthEmit", dependencies: ["HealthCore", "HealthPresentation", "HealthStore", "SQLite", "CSV", "Parquet", "PrivateFiles"],
                swiftSettings: strict),
        // Wiring, checkpoints, lock, progress.
        .target(name: "HealthPipeline",
                dependencies: ["HealthCore", "HealthIngest", "HealthConnectIngest", "HealthNormalize", "HealthDedupe", "HealthAggregate",
                               "HealthAnalytics", "HealthStore", "HealthEmit", "SQLite", "CSV", "PrivateFiles", "BuildStamp"],
                swiftSettings: strict),
        // The output registry: every format the pipeline's `outputs` can name (above the
        // pipeline, which knows none of them).
        .target(name: "HealthOutputs", dependencies: ["HealthCore", "HealthPipeline", "HealthEmit", "HealthStore", "HealthReport",
                                                     "HealthWorkbook", "HealthFHIR"],
                swiftSettings: strict),
        // FHIR R4 (Bulk Data NDJSON) from the store: the `fhir` output.
        .target(name: "HealthFHIR", dependencies: ["HealthCore", "HealthStore", "SQLite", "PrivateFiles"],
                swiftSettings: strict),
        // The trends report: one self-contained HTML page from the store (SVG charts, insights).
        .target(name: "HealthReport", dependencies: ["HealthCore", "HealthPresentation", "HealthStore", "SQLite", "PrivateFiles"],
                swiftSettings: strict),
        // The spreadsheet workbook (health.xlsx), from the store, in the person's units.
        .target(name: "HealthWorkbook", dependencies: ["HealthCore", "HealthPresentation", "HealthStore", "SQLite", "Spreadsheet", "PrivateFiles"],
                swiftSettings: strict),
        // The cohort dataset: people's tables as Hive-partitioned Parquet (Spark, DuckDB).
        .target(name: "HealthDataset", dependencies: ["HealthCore", "HealthStore", "HealthEmit", "SQLite", "PrivateFiles"],
                swiftSettings: strict),
        // People: several people in one output folder (their own folders, settings, imports).
        .target(name: "HealthPeople", dependencies: ["HealthCore", "HealthPipeline", "HealthOutputs", "HealthStore", "HealthDataset", "SQLite",
                                                    "PrivateFiles"],
                swiftSettings: strict),
        // HealthQL: a small query language compiled to SQL over a published store (issue 7).
        .target(name: "HealthQL", dependencies: ["HealthCore", "HealthStore", "SQLite", "CSV"], swiftSettings: strict),
        // The Model Context Protocol server (`healthetl mcp`, issue 34): JSON-RPC on stdio over HealthQL, read-only.
        .target(name: "HealthMCP", dependencies: ["HealthCore", "HealthQL", "HealthStore"], swiftSettings: strict),
        // Thin command line.
        .executableTarget(name: "healthetl", dependencies: ["HealthCore", "HealthStore", "HealthPipeline", "HealthOutputs", "HealthPeople",
                                                            "HealthReport", "HealthFHIR", "HealthQL", "HealthMCP", "SQLite"],
                          swiftSettings: strict),
        // The parse floor for `make bench`: libxml2 only.
        .executableTarget(name: "xmlfloor", dependencies: ["CLibXML2"], swiftSettings: strict),

        // Fuzz targets (`make fuzz`, issue 26): one libFuzzer entry point per parser of untrusted
        // bytes. `make fuzz` builds them with -sanitize=fuzzer,address and -DFUZZING (libFuzzer
        // supplies main); a plain build makes each a replayer of the inputs named on its command
        // line, so a crashing input can be run under a debugger or after a fix.
        .target(name: "FuzzHarness", path: "fuzz/harness", swiftSettings: strict),
        .executableTarget(name: "fuzz-xml", dependencies: ["FuzzHarness", "HealthIngest", "HealthCore"],
                          path: "fuzz/targets/xml", swiftSettings: strict),
        .executableTarget(name: "fuzz-zip", dependencies: ["FuzzHarness", "Archive", "HealthIngest", "HealthCore"],
                          path: "fuzz/targets/zip", swiftSettings: strict),
        .executableTarget(name: "fuzz-dates-numbers", dependencies: ["FuzzHarness", "HealthIngest", "HealthCore"],
                          path: "fuzz/targets/dates-numbers", swiftSettings: strict),
        .executableTarget(name: "fuzz-gpx", dependencies: ["FuzzHarness", "HealthIngest", "HealthCore"],
                          path: "fuzz/targets/gpx", swiftSettings: strict),
        .executableTarget(name: "fuzz-ecg", dependencies: ["FuzzHarness", "HealthIngest", "HealthCore"],
                          path: "fuzz/targets/ecg", swiftSettings: strict),
        .executableTarget(name: "fuzz-health-connect", dependencies: ["FuzzHarness", "HealthConnectIngest", "HealthCore"],
                          path: "fuzz/targets/health-connect", swiftSettings: strict),
        .executableTarget(name: "fuzz-clinical", dependencies: ["FuzzHarness", "HealthIngest"],
                          path: "fuzz/targets/clinical", swiftSettings: strict),
        .executableTarget(name: "fuzz-healthql", dependencies: ["FuzzHarness", "HealthQL", "HealthStore", "HealthCore", "SQLite"],
                          path: "fuzz/targets/healthql", swiftSettings: strict),
        .executableTarget(name: "fuzz-mcp", dependencies: ["FuzzHarness", "HealthMCP", "HealthStore", "HealthCore", "SQLite"],
                          path: "fuzz/targets/mcp", swiftSettings: strict),
        .executableTarget(name: "fuzz-line-editor", dependencies: ["FuzzHarness", "HealthQL"],
                          path: "fuzz/targets/line-editor", swiftSettings: strict),

        // Tests by kind (issue 47), as swift-argument-parser lays them out: a unit target per
        // module (`<Module>Tests`: in-process, never the healthetl binary or the export
        // generator; `make check` runs these), one end-to-end target (the binary on generated
        // and real exports, Python readers, Chromium, LibreOffice, Spark) and one support
        // target they share. scripts/check-test-targets.py holds the layout.
        .target(name: "TestSupport", dependencies: ["HealthCore", "HealthIngest", "SQLite"], path: "Tests/TestSupport",
                swiftSettings: strict),
        .testTarget(name: "HealthCoreTests", dependencies: ["HealthCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HealthIngestTests", dependencies: ["HealthIngest", "HealthCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HealthNormalizeTests", dependencies: ["HealthNormalize", "HealthCore"], swiftSettings: strict),
        .testTarget(name: "HealthAggregateTests", dependencies: ["HealthAggregate", "HealthDedupe", "HealthCore"],
                    swiftSettings: strict),
        .testTarget(name: "HealthDedupeTests", dependencies: ["HealthDedupe", "HealthCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HealthAnalyticsTests", dependencies: ["HealthAnalytics", "HealthAggregate", "HealthStore", "HealthCore",
                                                                 "HealthPresentation", "SQLite"],
                    swiftSettings: strict),
        .testTarget(name: "HealthStoreTests", dependencies: ["HealthStore", "HealthDedupe", "HealthEmit", "HealthCore", "SQLite", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "HealthEmitTests", dependencies: ["HealthEmit", "HealthCore", "CSV", "PrivateFiles", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "HealthFHIRTests", dependencies: ["HealthFHIR", "HealthStore", "HealthCore"], swiftSettings: strict),
        .testTarget(name: "HealthReportTests", dependencies: ["HealthReport", "HealthStore", "HealthCore"], swiftSettings: strict),
        .testTarget(name: "HealthQLTests", dependencies: ["HealthQL", "HealthCore", "HealthStore", "SQLite", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "HealthConnectIngestTests", dependencies: ["HealthConnectIngest", "HealthCore"], swiftSettings: strict),
        .testTarget(name: "HealthPipelineTests", dependencies: ["HealthPipeline", "HealthAnalytics", "HealthCore", "TestSupport"], swiftSettings: strict),
        // The general libraries' own tests: no health types.
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "SpreadsheetTests", dependencies: ["Spreadsheet", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "ParquetTests", dependencies: ["Parquet", "Archive", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "ArchiveTests", dependencies: ["Archive", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PrivateFilesTests", dependencies: ["PrivateFiles", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "CSVTests", dependencies: ["CSV", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HealthETLEndToEndTests",
                    dependencies: ["TestSupport", "HealthCore", "HealthIngest", "HealthAggregate", "HealthAnalytics", "HealthStore",
                                   "HealthEmit", "HealthPipeline", "HealthOutputs", "HealthPeople", "HealthReport", "HealthQL", "SQLite"],
                    exclude: ["Scripts"],   // Python checkers and drivers the tests run (tooling only)
                    swiftSettings: strict),
    ]
)

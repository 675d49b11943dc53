// swift-tools-version:6.0
// HealthETL: one target per pipeline stage, a small core, system C libraries, a thin CLI.
import PackageDescription

// Release builds: cross-module optimization specializes the stages' generic types
// (PriorityMerger<Tag>, DaySplitter<Tag>) where the pipeline uses them, instead of looking up
// their metadata at run time per call; exclusivity is checked at compile time only (debug
// builds, which the tests use, keep the run-time checks: the per-access bookkeeping cost the
// parser a few percent).
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .unsafeFlags(["-cross-module-optimization", "-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

let package = Package(
    name: "HealthETL",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "healthetl", targets: ["healthetl"]),
        .library(name: "HealthETL", targets: ["HealthPipeline", "HealthQL"]),
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

        // Core: the typed model, the channel, shared utilities. No C libraries.
        .target(name: "HealthCore", swiftSettings: strict),
        // Stages.
        .target(name: "HealthIngest", dependencies: ["HealthCore", "CLibXML2", "CZlib"], swiftSettings: strict),
        .target(name: "HealthNormalize", dependencies: ["HealthCore"], swiftSettings: strict),
        .target(name: "HealthDedupe", dependencies: ["HealthCore"], swiftSettings: strict),
        .target(name: "HealthAggregate", dependencies: ["HealthCore"], swiftSettings: strict),
        .target(name: "HealthEmit", dependencies: ["HealthCore", "CSQLite", "CZlib"], swiftSettings: strict),
        // Wiring, checkpoints, lock, progress.
        .target(name: "HealthPipeline",
                dependencies: ["HealthCore", "HealthIngest", "HealthNormalize", "HealthDedupe", "HealthAggregate",
                               "HealthEmit"],
                swiftSettings: strict),
        // HealthQL: a small query language compiled to SQL over a published store (issue 7).
        .target(name: "HealthQL", dependencies: ["HealthCore", "HealthEmit", "CSQLite"], swiftSettings: strict),
        // Thin command line.
        .executableTarget(name: "healthetl", dependencies: ["HealthPipeline", "HealthQL"], swiftSettings: strict),
        // The parse floor for `make bench`: libxml2 only.
        .executableTarget(name: "xmlfloor", dependencies: ["CLibXML2"], swiftSettings: strict),

        .testTarget(name: "HealthETLTests",
                    dependencies: ["HealthCore", "HealthIngest", "HealthNormalize", "HealthDedupe",
                                   "HealthAggregate", "HealthEmit", "HealthPipeline"],
                    exclude: ["Scripts"],   // Python checkers the tests run (tooling only)
                    swiftSettings: strict),
        .testTarget(name: "HealthQLTests", dependencies: ["HealthQL", "HealthCore", "HealthEmit"],
                    exclude: ["Scripts"],   // the Python pty driver of the REPL test (tooling only)
                    swiftSettings: strict),
    ]
)

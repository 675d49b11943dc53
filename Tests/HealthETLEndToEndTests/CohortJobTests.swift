import Foundation
import XCTest
import TestSupport

/// Issue 24: the Spark cohort job in local mode (issue 43: from the release tarball), checked end to end by
/// `Scripts/check_cohort.py` (tooling: it generates the exports, runs `spark/cohort_job.py`,
/// and compares what Spark wrote with plain imports and with DuckDB). Needs Java and pyspark
/// (`make venv` installs pyspark; CI installs Debian's `openjdk-17-jre-headless`).
final class CohortJobTests: XCTestCase {
    func testTheSparkJobBuildsTheDatasetAndTheCohortTables() throws {
        let python = ProcessInfo.processInfo.environment["HEALTHETL_PYTHON"]
            ?? TestPaths.packageRoot.appendingPathComponent(".venv/bin/python").path
        let missing = try requirementsMissing(python)
        if let missing {
            if ProcessInfo.processInfo.environment["HEALTHETL_ALLOW_MISSING_SPARK"] == "1" { throw XCTSkip(missing) }
            return XCTFail(missing + " (set HEALTHETL_ALLOW_MISSING_SPARK=1 to skip)")
        }
        let work = try temporaryFolder(self).path
        let script = TestPaths.script("check_cohort.py")
        // Issue 43: the executors run the release tarball's binary (spark.archives), with no
        // toolchain and no healthetl on PATH.
        let r = try runProcess(python, [script, TestPaths.binary, TestPaths.packageRoot.path, work, try ReleaseTarballTests.tarball()],
                               timeout: 600)
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr.suffix(3000))
        XCTAssertTrue(r.stdout.contains("cohort checks passed"), r.stdout)
    }

    private func requirementsMissing(_ python: String) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: python) else { return "no Python venv at \(python): run make venv" }
        let java = try runProcess("/usr/bin/env", ["sh", "-c", "command -v java"])
        guard java.status == 0 else { return "Java is not installed: apt-get install -y openjdk-17-jre-headless" }
        let spark = try runProcess(python, ["-c", "import pyspark, duckdb, pyarrow"])
        guard spark.status == 0 else { return "pyspark, duckdb or pyarrow missing in \(python): run make venv" }
        return nil
    }
}

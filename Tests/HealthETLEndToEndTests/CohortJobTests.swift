import Foundation
import XCTest
import TestSupport

/// Issue 24: the Spark cohort job in local mode (issue 43: from the release tarball), checked end to end by
/// `Scripts/check_cohort.py` (tooling: it generates the exports, runs `spark/cohort_job.py`,
/// and compares what Spark wrote with plain imports and with DuckDB). Needs Java and pyspark
/// (`make venv` installs pyspark; CI installs Debian's `openjdk-17-jre-headless`).
final class CohortJobTests: XCTestCase {
    func testTheSparkJobBuildsTheDatasetAndTheCohortTables() throws {
        // Spark's two halves, each a missing `.spark` (HEALTHETL_ALLOW_MISSING_SPARK) when absent.
        _ = try TestTools.program("java", missing: .spark, install: "apt-get install -y openjdk-17-jre-headless")
        let python = try TestTools.python(importing: ["pyspark", "duckdb", "pyarrow"], missing: .spark)
        let work = try temporaryFolder(self).path
        let script = TestPaths.script("check_cohort.py")
        // Issue 43: the executors run the release tarball's binary (spark.archives), with no
        // toolchain and no healthetl on PATH.
        // Spark left alone binds its driver to the machine's address: pinned to loopback, so no
        // traffic of the test leaves the machine (SPARK_LOCAL_IP is what Spark binds to and
        // names itself by; the job and its executors inherit it).
        let r = try runProcess(python, [script, TestPaths.binary, TestPaths.packageRoot.path, work, try ReleaseTarballTests.tarball()],
                               timeout: 600, environment: ["SPARK_LOCAL_IP": "127.0.0.1", "SPARK_LOCAL_HOSTNAME": "localhost"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr.suffix(3000))
        XCTAssertTrue(r.stdout.contains("cohort checks passed"), r.stdout)
    }
}

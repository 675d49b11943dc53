import Foundation
import XCTest
import TestSupport

/// Issue 61: the Spark cohort job on a real standalone cluster, checked end to end by
/// `Scripts/check_cohort_cluster.py` (tooling: it starts a master and two workers, each its own
/// JVM with its own work and scratch folders, submits the job with `spark-submit --master
/// spark://127.0.0.1:PORT --archives <release tarball>`, compares what Spark's writer wrote with
/// single-machine imports, re-runs after changing one export, and kills a worker mid-job). Six
/// exports, one broken, one an Android Health Connect export. One cluster start serves the whole
/// check. Needs Java and pyspark, like `CohortJobTests`: where either is missing the test fails
/// saying so, or skips saying so with `HEALTHETL_ALLOW_MISSING_SPARK=1`.
final class CohortClusterTests: XCTestCase {
    func testTheJobOnAStandaloneClusterWritesTheDatasetWithSparkAndSurvivesALostWorker() throws {
        _ = try TestTools.program("java", missing: .spark, install: "apt-get install -y openjdk-17-jre-headless")
        let python = try TestTools.python(importing: ["pyspark", "duckdb", "pyarrow"], missing: .spark)
        let work = try temporaryFolder(self).path
        let script = TestPaths.script("check_cohort_cluster.py")
        // Loopback only: what the master, the workers, the driver and the executors bind to and
        // name themselves by (the checker also pins spark.driver.host and bindAddress).
        let r = try runProcess(python, [script, TestPaths.binary, TestPaths.packageRoot.path, work, try ReleaseTarballTests.tarball()],
                               timeout: 900, environment: ["SPARK_LOCAL_IP": "127.0.0.1", "SPARK_LOCAL_HOSTNAME": "localhost"])
        XCTAssertEqual(r.status, 0, String(r.stdout.suffix(4000)) + String(r.stderr.suffix(3000)))
        XCTAssertTrue(r.stdout.contains("cohort cluster checks passed"), String(r.stdout.suffix(4000)))
    }
}

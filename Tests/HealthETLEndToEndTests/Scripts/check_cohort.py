#!/usr/bin/env python3
"""Checks the Spark cohort job end to end (tooling: it reads what healthetl and Spark wrote).

    check_cohort.py HEALTHETL REPO WORKDIR

Four generated exports of different people (zones, seeds, one a zip) and a broken fifth go
through spark/cohort_job.py in local mode (local[2]), --out a relative local path. Every table of
each person Spark's writer wrote must hold the schema and the rows of the partitions healthetl
writes in a plain single-person import (cohort_compare.py; check_cohort_cluster.py checks the
same on a standalone cluster, so the two datasets are the same); DuckDB over the dataset must give
the cohort tables Spark gave; the broken export is a failed status row that changes nothing else;
a re-run skips unchanged exports; a --force job killed half-way leaves a readable dataset of
whole partitions, and the next run finishes it, replacing partitions instead of appending.
Prints one line per check and exits non-zero on the first failure.
"""
import glob, json, math, os, shutil, signal, subprocess, sys, time

import duckdb
import pyarrow.parquet as pq

from cohort_compare import TABLES, differences

healthetl, repo, work = sys.argv[1], sys.argv[2], sys.argv[3]
# Issue 43: with a release tarball, the job ships it to the executors (--release) and runs with no
# Swift toolchain and no healthetl on PATH, so every import is the tarball's binary.
release = sys.argv[4] if len(sys.argv) > 4 else None
if release:
    binary_args = ["--release", release]
    job_env = dict(os.environ, PATH=os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep)
                                                   if d and not os.path.exists(os.path.join(d, "swift"))
                                                   and not os.path.exists(os.path.join(d, "healthetl"))))
else:
    binary_args, job_env = ["--healthetl", healthetl], None
python = sys.executable
job = os.path.join(repo, "spark", "cohort_job.py")
# A short-lived JVM on two cores: the client compiler only and one GC thread (the test's time is
# mostly the C2 compiler's otherwise; check_cohort_cluster.py measured 226 -> 141 CPU-s).
os.environ.setdefault("JAVA_TOOL_OPTIONS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
if job_env is not None:
    job_env.setdefault("JAVA_TOOL_OPTIONS", os.environ["JAVA_TOOL_OPTIONS"])
generator = os.path.join(repo, "tools", "generate_export.py")
exports, out, plain = os.path.join(work, "exports"), os.path.join(work, "out"), os.path.join(work, "plain")
PEOPLE = {"anna": ("Europe/Berlin", 3, "xml", 24), "ben": ("America/New_York", 4, "zip", 18),
          "chen": ("Asia/Shanghai", 5, "xml", 20), "dora": ("Australia/Sydney", 6, "xml", 16)}


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print("ok: " + message)


def run_job(*extra):
    # --out relative to the job's working folder (WORKDIR): a local path is made a file: URI.
    r = subprocess.run([python, job, "--exports", exports, "--out", "out", "--master", "local[2]"] + binary_args
                       + list(extra), capture_output=True, text=True, env=job_env, cwd=work)
    if r.returncode != 0:
        fail("the job exited %d: %s" % (r.returncode, r.stderr[-3000:]))
    return {row["person"]: row for row in pq.read_table(os.path.join(out, "status")).to_pylist()}


def partition_bytes():
    return {p: open(p, "rb").read() for p in sorted(glob.glob(os.path.join(out, "dataset", "*", "person=*", "**", "*.parquet"),
                                                              recursive=True))}


os.makedirs(exports)
for person, (zone, seed, layout, days) in PEOPLE.items():
    path = os.path.join(exports, person + (".zip" if layout == "zip" else ".xml"))
    subprocess.run([python, generator, "--out", path, "--layout", layout, "--zone", zone, "--seed", str(seed), "--days",
                    str(days), "--start", "2024-05-0%d" % seed], check=True, capture_output=True)
    # The plain single-person import to compare with.
    subprocess.run([healthetl, "import", path, "--out", os.path.join(plain, person), "--person", person, "--quiet"], check=True)
with open(os.path.join(exports, "broken.xml"), "w") as f:
    f.write("<HealthData locale=\"en_US\">\n<Record type=\"HKQuantityTypeIdentifierStepCount\"")

status = run_job()
check(sorted(status) == sorted(list(PEOPLE) + ["broken"]), "a status row per export")
check(all(status[p]["status"] == "ok" and status[p]["exit_code"] == 0 for p in PEOPLE), "four people imported")
# The binary that ran: the tarball's own (extracted here), else the one given.
shipped = [healthetl]
if release:
    os.makedirs(os.path.join(work, "shipped"))
    subprocess.run(["tar", "-xzf", release, "-C", os.path.join(work, "shipped")], check=True)
    shipped = glob.glob(os.path.join(work, "shipped", "healthetl-*", "bin", "healthetl"))
ran = subprocess.run(shipped + ["--version", "--json"], capture_output=True, text=True, check=True).stdout
expected = "%(version)s (commit %(commit)s, built %(build_date)s)" % json.loads(ran)
check(all(status[p]["healthetl"] == expected for p in PEOPLE),
      "the status names the healthetl that ran: %s (%s)" % (status["anna"]["healthetl"], "the release tarball" if release else healthetl))
check(status["broken"]["status"] == "failed" and status["broken"]["exit_code"] == 65 and "broken.xml" in status["broken"]["message"],
      "the broken export is a failed row naming the file: " + status["broken"]["message"])
check(not glob.glob(os.path.join(out, "dataset", "*", "person=broken")), "the broken export wrote no partition")
def own(person, name):
    """The plain import's own file (OUT/people/ID/parquet/NAME.parquet)."""
    return os.path.join(plain, person, "people", person, "parquet", name + ".parquet")


for person in PEOPLE:
    compared, problems = differences(os.path.join(out, "dataset"), os.path.join(plain, person), person)
    check(compared and not problems, "%s: every table = the plain import's partitions (%d rows) %s"
          % (person, compared, "; ".join(problems)))
    check(status[person]["days"] == pq.read_metadata(own(person, "daily")).num_rows, person + ": days in the status row")

# DuckDB over the dataset: the same cohort tables (its own SQL, an independent computation).
db = duckdb.connect()
ds = os.path.join(out, "dataset")
db.execute("CREATE VIEW daily AS SELECT * FROM read_parquet('%s/daily/*/*.parquet', hive_partitioning = true)" % ds)
db.execute("CREATE VIEW weekly AS SELECT * FROM read_parquet('%s/weekly/*/*.parquet', hive_partitioning = true)" % ds)
db.execute("CREATE VIEW day_quality AS SELECT * FROM read_parquet('%s/data_quality/*/*.parquet', hive_partitioning = true)" % ds)
db.execute("CREATE VIEW samples AS SELECT * FROM read_parquet('%s/samples/*/*/*.parquet', hive_partitioning = true)" % ds)
duck = {
    "person_percentiles": """SELECT person, quantile_cont(steps, 0.1), quantile_cont(steps, 0.5), quantile_cont(steps, 0.9),
        quantile_cont(sleep_total_minutes, 0.1), quantile_cont(sleep_total_minutes, 0.5), quantile_cont(sleep_total_minutes, 0.9)
        FROM daily GROUP BY person ORDER BY person""",
    "cohort_weekly": """SELECT week_start, count(DISTINCT person), avg(steps / days_with_data), avg(sleep_total_minutes / days_with_data)
        FROM weekly WHERE days_with_data > 0 GROUP BY week_start ORDER BY week_start""",
    "days_with_data": """SELECT person, count(*) FILTER (WHERE valid_day = 1), count(*), min(date), max(date),
        count(*) FILTER (WHERE valid_day = 1) / (max(date) - min(date) + 1)
        FROM day_quality GROUP BY person ORDER BY person""",
    "data_quality": """SELECT d.person,
          count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM samples s WHERE s.person = d.person AND s.local_date = d.date
                                              AND s.device_model LIKE '%Watch%')),
          count(*) FILTER (WHERE d.date - (SELECT max(e.date) FROM daily e WHERE e.person = d.person AND e.date < d.date) > 7)
        FROM daily d GROUP BY d.person ORDER BY d.person""",
}


def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return (a is None and b is None) or (a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9))
    return a == b


for name, sql in duck.items():
    spark_rows = sorted(tuple(r.values()) for r in pq.read_table(os.path.join(out, "cohort", name)).to_pylist())
    duck_rows = sorted(db.execute(sql).fetchall())
    check(len(spark_rows) == len(duck_rows) and all(len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
                                                    for a, b in zip(spark_rows, duck_rows)),
          "cohort table %s: Spark = DuckDB (%d rows)" % (name, len(spark_rows)))
check(len(db.execute("SELECT DISTINCT person FROM daily").fetchall()) == 4, "DuckDB reads person as a column")
# The valid days are the rule over each person's own data_quality.parquet (default: 10 worn hours).
for person in PEOPLE:
    quality = pq.read_table(own(person, "data_quality")).to_pylist()
    check(all(r["valid_day"] == (1 if r["watch_hours"] >= 10 else 0) for r in quality) and any(r["valid_day"] for r in quality),
          person + "'s valid days follow the 10-hour rule")
    spark_days = [r for r in pq.read_table(os.path.join(out, "cohort", "days_with_data")).to_pylist() if r["person"] == person][0]
    check(spark_days["days"] == sum(r["valid_day"] for r in quality) and spark_days["recorded_days"] == len(quality),
          person + ": days_with_data counts the valid days")

# A re-run skips what did not change; --force replaces partitions instead of appending.
before = partition_bytes()
again = run_job()
check(all(again[p]["status"] == "skipped" for p in PEOPLE) and again["broken"]["status"] == "failed",
      "a re-run skips the unchanged exports and reports the broken one again")
check(partition_bytes() == before, "a re-run changes nothing in the dataset")

# A job killed half-way, then run again: the dataset readable throughout, every person whole after.
# (The job writes table by table, the status last: killed, it leaves the tables it committed.)
shutil.rmtree(os.path.join(out, "dataset"))
proc = subprocess.Popen([python, job, "--exports", exports, "--out", "out", "--master", "local[2]", "--force"] + binary_args,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=job_env, cwd=work)
deadline = time.time() + 120
while time.time() < deadline and not glob.glob(os.path.join(out, "dataset", "*", "person=*")):
    time.sleep(0.05)
os.killpg(proc.pid, signal.SIGKILL)
proc.wait()
READERS_SKIP = (".", "_")  # Spark's and Hive's readers skip these names; DuckDB's table/*/*.parquet never reaches inside
for table in TABLES:
    folder = os.path.join(out, "dataset", table)
    for name in (os.listdir(folder) if os.path.isdir(folder) else []):
        check(name.startswith("person=") or name.startswith(READERS_SKIP),
              "after the kill, %s holds whole partitions and hidden leftovers only (%s)" % (table, name))
    for part in glob.glob(os.path.join(folder, "person=*")):
        person = os.path.basename(part)[7:]
        _, problems = differences(os.path.join(out, "dataset"), os.path.join(plain, person), person, [table])
        check(not problems, "after the kill, %s of %s is whole %s" % (table, person, "; ".join(problems)))
committed = [t for t in TABLES if glob.glob(os.path.join(out, "dataset", t, "person=*"))]
if committed:
    rows = db.execute("SELECT count(*) FROM read_parquet('%s/dataset/%s/*/*.parquet', hive_partitioning = true)"
                      % (out, committed[0])).fetchone()[0]
    check(rows > 0, "after the kill, DuckDB reads %s (%d rows)" % (committed[0], rows))
final = run_job()
check(all(final[p]["status"] in ("ok", "skipped") for p in PEOPLE),
      "the re-run after the kill imports everyone (or skips who was published whole): "
      + ", ".join("%s %s" % (p, final[p]["status"]) for p in sorted(PEOPLE)))
for person in PEOPLE:
    compared, problems = differences(os.path.join(out, "dataset"), os.path.join(plain, person), person)
    check(compared and not problems, person + " is whole " + "; ".join(problems))
# The killed run was --force: the tables it committed replaced the first run's partitions, and
# the last run replaced them again; dynamic overwrite replaces, never appends.
counts = dict(db.execute("SELECT person, count(*) FROM daily GROUP BY person").fetchall())
check(all(counts[p] == pq.read_metadata(own(p, "daily")).num_rows for p in PEOPLE),
      "partitions replaced, not appended: no duplicated days")
leftovers = [n for t in TABLES for n in (os.listdir(os.path.join(out, "dataset", t)) if os.path.isdir(os.path.join(out, "dataset", t)) else [])
             if n.startswith(".spark-staging") or n == "_temporary"]
check(not leftovers, "no leftovers: %s" % leftovers)
check(not os.path.exists(os.path.join(work, "file:")), "no 'file:' folder")
print("cohort checks passed")

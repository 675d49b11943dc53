#!/usr/bin/env python3
"""The cohort job: many participants' exports (Apple Health or Android Health Connect) into one
Hive-partitioned Parquet dataset, with Apache Spark. PySpark only drives: every byte of health
data is parsed, counted and aggregated by `healthetl`, which the executors run, one task per
export; Spark's own writer writes what they hand back.

    spark-submit [--master URL] [--archives healthetl-VERSION-linux-ARCH.tar.gz] spark/cohort_job.py \
        --exports DIR_OR_LIST --out URI [--release TARBALL | --healthetl PATH] [--scratch DIR] [--force]
    python spark/cohort_job.py ...          (the same, in local mode: --master, else local[2])

The binary: --healthetl PATH (one every executor has), else the `healthetl-*/bin/healthetl` of a
release tarball (`make dist`) shipped with `spark-submit --archives` or with --release (which
sets spark.archives itself), else `healthetl` on PATH. A cluster needs neither a Swift toolchain
nor an installed healthetl; its executors' Python needs pyarrow (PySpark's Arrow functions).

--out is a Hadoop URI (`file:///…`, `hdfs://…`, `s3a://…`, `gs://…`, `abfs://…`) or a local path
(made a `file:` URI). Only Spark writes there — its DataFrame writer and, on the driver, Hadoop's
FileSystem for leftovers — never Python's file functions:

OUT/dataset/   <table>/person=ID/part-*.parquet (samples: person=ID/year=YYYY/), written with
               partitionBy and dynamic partition overwrite (docs/PEOPLE.md)
OUT/status/    person=ID/: one row per person, the last run's: export, exit_code, message,
               samples, days, seconds, size, mtime, sha256, status (ok, failed, skipped), healthetl
               (the release, commit and build date of the binary that ran)
OUT/cohort/    cohort tables computed with Spark SQL (person_percentiles, cohort_weekly,
               days_with_data: valid days and the yield per person, data_quality)

Each task imports one export into a folder of its own under the executor's local scratch
(--scratch, else the folders Spark gives the executor: SPARK_EXECUTOR_DIRS, LOCAL_DIRS,
SPARK_LOCAL_DIRS, else the temporary folder), reads the person's Parquet partitions back as
bytes, and removes the folder; the dataset's writer turns those bytes into Arrow batches
(mapInArrow) and writes them. Exports: a folder (NAME.zip, NAME.xml or NAME/ is person NAME) or a
list file (one path or URI a line, the person named after the file); `hdfs://`, `s3a://` (any
Hadoop URI but `file:`) folders are listed by the driver through Hadoop and fetched by the
executors with `hadoop fs -get`. A re-run skips a person whose export is unchanged (size,
modification time and SHA-256 as recorded, partitions present) unless --force; one broken export
is a failed row, never a failed job.
"""
import argparse
import glob
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from urllib.parse import unquote, urlparse

DATASET_TABLES = ["daily", "weekly", "monthly", "yearly", "sleep", "workouts", "activity_summaries", "ecg_recordings",
                  "ecg_samples", "daily_vitals", "blood_pressure", "hrv_measurements", "workout_details",
                  "reconciliation", "reconciliation_sources", "data_quality", "sources", "samples"]
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
RELEASE_ALIAS = "healthetl-release"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--exports", required=True, help="a folder of exports or a list file")
    p.add_argument("--out", required=True, help="output: a Hadoop URI (file:, hdfs:, s3a:, ...) or a local path")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--release", default=None, help="a release tarball (make dist) shipped to the executors")
    which.add_argument("--healthetl", default=None, help="the healthetl binary every executor has")
    p.add_argument("--scratch", default=None, help="executor-local scratch folder (default: Spark's local dirs)")
    p.add_argument("--pipeline", default=None, help="pipeline file passed to healthetl import (every executor's path)")
    p.add_argument("--master", default=None, help="Spark master (default: from spark-submit, else local[2])")
    p.add_argument("--force", action="store_true", help="import unchanged exports again")
    return p.parse_args(argv)


def output_uri(out):
    """--out as a URI Hadoop resolves: a local path (relative or not) becomes file:///ABS."""
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", out) and not re.match(r"^[A-Za-z]:[\\/]", out):
        return out.rstrip("/") or out
    return "file://" + os.path.abspath(out)


def local_path(path):
    """A local path or a file: URI as a local path; None for any other URI."""
    if path.startswith("file:"):
        return unquote(urlparse(path).path)
    return None if "://" in path else path


def person_of(path):
    """Person NAME of NAME.zip, NAME.xml or NAME/."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    for ext in (".zip", ".xml"):
        if name.lower().endswith(ext):
            return name[: -len(ext)]
    return name


class Hadoop:
    """The driver's Hadoop FileSystem calls on --out (exists, list, delete): the JVM's, so they
    reach every store Spark writes to."""

    def __init__(self, spark, uri):
        self.jvm = spark._jvm
        self.conf = spark._jsc.hadoopConfiguration()
        self.fs = self.jvm.org.apache.hadoop.fs.Path(uri).getFileSystem(self.conf)

    def path(self, uri):
        return self.jvm.org.apache.hadoop.fs.Path(uri)

    def exists(self, uri):
        return self.fs.exists(self.path(uri))

    def children(self, uri):
        """(name, is_dir) of the entries of a folder; none when it does not exist."""
        if not self.exists(uri):
            return []
        return [(s.getPath().getName(), s.isDirectory()) for s in self.fs.listStatus(self.path(uri))]

    def delete(self, uri):
        return self.fs.delete(self.path(uri), True)


def list_exports(spark, source):
    """(person, path) of every export in a folder or list file."""
    local = local_path(source)
    if local is not None and os.path.isfile(local):
        with open(local) as f:
            paths = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    elif local is None:
        jvm = spark._jvm
        hpath = jvm.org.apache.hadoop.fs.Path(source)
        fs = hpath.getFileSystem(spark._jsc.hadoopConfiguration())
        paths = [str(s.getPath()) for s in fs.listStatus(hpath) if not s.getPath().getName().startswith(".")]
    else:
        paths = [os.path.abspath(os.path.join(local, n)) for n in sorted(os.listdir(local)) if not n.startswith(".")]
        paths = [p for p in paths if os.path.isdir(p) or p.lower().endswith((".zip", ".xml"))]
    return [(person_of(p), p) for p in sorted(paths)]


def fingerprint(path):
    """Size, modification time and SHA-256 of a file (a folder: of its files, by name)."""
    files = [path] if os.path.isfile(path) else sorted(
        os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs)
    digest, size, mtime = hashlib.sha256(), 0, 0.0
    for f in files:
        st = os.stat(f)
        size += st.st_size
        mtime = max(mtime, st.st_mtime)
        digest.update(os.path.relpath(f, path).encode())
        with open(f, "rb") as h:
            for block in iter(lambda: h.read(1 << 20), b""):
                digest.update(block)
    return size, mtime, digest.hexdigest()


def executor_binary(settings):
    """The binary this executor runs: the given one, else the one inside a release tarball Spark
    unpacked into the executor's working folder (spark.archives), else healthetl on PATH."""
    if settings["healthetl"]:
        return settings["healthetl"]
    from pyspark import SparkFiles
    for name in settings["archives"]:
        for root in (SparkFiles.get(name), os.path.join(os.getcwd(), name)):
            found = glob.glob(os.path.join(root, "healthetl-*", "bin", "healthetl"))
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                raise RuntimeError("the release unpacked in %s holds %d healthetl binaries, not one" % (root, len(found)))
    if settings["archives"]:
        raise RuntimeError("no healthetl-*/bin/healthetl in the shipped archives (%s)" % ", ".join(settings["archives"]))
    return "healthetl"


def scratch_base(settings):
    """The executor's local scratch: --scratch, else a folder Spark gave this executor."""
    if settings["scratch"]:
        return settings["scratch"]
    for variable in ("SPARK_EXECUTOR_DIRS", "LOCAL_DIRS", "SPARK_LOCAL_DIRS"):
        value = os.environ.get(variable)
        if value:
            return re.split(r"[,:]", value)[0]
    return tempfile.gettempdir()


def read_back(dataset, person):
    """The person's partitions healthetl wrote, as (table, year, Parquet bytes, schema): what goes
    through Spark. The bytes are healthetl's files, unparsed here (only their footers are read)."""
    import pyarrow.parquet as pq
    found = []
    for table in DATASET_TABLES:
        part = os.path.join(dataset, table, "person=" + person)
        if not os.path.isdir(part):
            raise RuntimeError("healthetl wrote no %s partition for %s" % (table, person))
        for f in sorted(glob.glob(os.path.join(part, "**", "*.parquet"), recursive=True)):
            year = re.search(r"/year=(\d+)/", f)
            with open(f, "rb") as h:
                data = h.read()
            # The file's schema (Arrow IPC), for the driver: the table's Spark schema.
            footer = pq.read_metadata(io.BytesIO(data))
            schema = footer.schema.to_arrow_schema().serialize().to_pybytes()
            found.append((table, int(year.group(1)) if year else None, data, schema, footer.num_rows))
    return found


def run_one(item, settings):
    """One executor task: import one export with healthetl in a scratch folder of its own; yields
    the status row, then ("part", person, table, year, bytes, schema, rows) of each of the person's files."""
    person, path = item
    started = time.time()
    row = {"person": person, "export": path, "exit_code": None, "message": "", "samples": None, "days": None,
           "seconds": 0.0, "size": None, "mtime": None, "sha256": None, "status": "failed", "healthetl": None,
           "tables": None}
    parts = []
    work = None
    try:
        healthetl = executor_binary(settings)
        if not ID_PATTERN.match(person):
            raise ValueError("'%s' is not a person id (letters, digits, '-' and '_', at most 64)" % person)
        base = scratch_base(settings)
        os.makedirs(base, exist_ok=True)
        work = tempfile.mkdtemp(prefix="healthetl-%s-" % person, dir=base)
        local = local_path(path)
        if local is None:
            local = os.path.join(work, "download", path.rstrip("/").rsplit("/", 1)[-1])
            os.makedirs(os.path.dirname(local))
            subprocess.run(["hadoop", "fs", "-get", "-f", path, local], check=True, capture_output=True)
        row["size"], row["mtime"], row["sha256"] = fingerprint(local)
        previous = settings["previous"].get(person)
        tables = (previous or {}).get("tables")
        if (not settings["force"] and previous and previous["status"] in ("ok", "skipped") and tables is not None
                and all(person in settings["present"].get(t, ()) for t in tables.split(",") if t)
                and (previous["size"], previous["mtime"], previous["sha256"]) == (row["size"], row["mtime"], row["sha256"])):
            row.update(status="skipped", exit_code=0, message="export unchanged", samples=previous["samples"],
                       days=previous["days"], healthetl=previous.get("healthetl"), tables=tables)
            return [("status", row)]
        root = os.path.join(work, "out")
        command = [healthetl, "import", local, "--out", root, "--person", person, "--quiet", "--json"]
        if settings["pipeline"]:
            command += ["--pipeline", settings["pipeline"]]
        result = subprocess.run(command, capture_output=True, text=True)
        row["exit_code"] = result.returncode
        if result.returncode != 0:
            row["message"] = (result.stderr.strip().splitlines() or ["exit %d" % result.returncode])[-1][:500]
            return [("status", row)]
        summary = json.loads(result.stdout)
        row["samples"] = summary.get("samples")
        row["healthetl"] = summary.get("healthetl")
        parts = read_back(os.path.join(root, "dataset"), person)
        # The days the person has (an incremental run's summary counts the days it recomputed).
        facts = subprocess.run([healthetl, "people", "show", person, "--out", root, "--json"],
                               capture_output=True, text=True, check=True)
        row["days"] = json.loads(facts.stdout)["days"]
        row.update(status="ok", message=summary.get("mode", ""),
                   tables=",".join(sorted({table for table, _, _, _, n in parts if n})))
        return [("status", row)] + [("part", person, table, year, data, schema, n) for table, year, data, schema, n in parts]
    except Exception as error:  # a broken export is a failed row, never a failed job
        row.update(status="failed", message=("%s: %s" % (type(error).__name__, error))[:500])
        return [("status", row)]
    finally:
        row["seconds"] = round(time.time() - started, 3)
        if work:
            shutil.rmtree(work, ignore_errors=True)


def arrow_decoder(table, arrow_schema):
    """The mapInArrow function of one table: each (person, year, data) row's Parquet bytes as Arrow
    batches of the table's schema, with person (and year) added for partitionBy."""
    def decode(batches):
        import pyarrow as pa
        import pyarrow.parquet as pq
        for batch in batches:
            for person, year, data in zip(batch.column("person").to_pylist(), batch.column("year").to_pylist(),
                                          batch.column("data").to_pylist()):
                t = pq.read_table(io.BytesIO(data))
                t = t.select([f.name for f in arrow_schema]).cast(arrow_schema)
                t = t.append_column("person", pa.array([person] * t.num_rows, pa.string()))
                if table == "samples":
                    t = t.append_column("year", pa.array([year] * t.num_rows, pa.int32()))
                for out in t.to_batches():
                    yield out
    return decode


COHORT_SQL = {
    # Per person: percentiles of daily steps and of nightly sleep (exact, linear interpolation).
    "person_percentiles": """
        SELECT person,
               percentile(steps, 0.1) AS steps_p10, percentile(steps, 0.5) AS steps_p50, percentile(steps, 0.9) AS steps_p90,
               percentile(sleep_total_minutes, 0.1) AS sleep_p10, percentile(sleep_total_minutes, 0.5) AS sleep_p50,
               percentile(sleep_total_minutes, 0.9) AS sleep_p90
        FROM daily GROUP BY person""",
    # Per week: the cohort's mean daily steps and sleep, and how many people contributed.
    "cohort_weekly": """
        SELECT week_start, count(DISTINCT person) AS people,
               avg(steps / days_with_data) AS mean_daily_steps,
               avg(sleep_total_minutes / days_with_data) AS mean_daily_sleep_minutes
        FROM weekly WHERE days_with_data > 0 GROUP BY week_start""",
    # Per person: the valid days (docs/data-quality.md: enough hours of wear), the days with any
    # data, their span, and the yield: valid days per calendar day of the span.
    "days_with_data": """
        SELECT person, sum(valid_day) AS days, count(*) AS recorded_days, min(date) AS first_day, max(date) AS last_day,
               sum(valid_day) / (datediff(max(date), min(date)) + 1) AS yield
        FROM day_quality GROUP BY person""",
    # Data quality: days with data but no sample from an Apple Watch; gaps of more than 7 days
    # between two days with data.
    "data_quality": """
        WITH watch AS (SELECT DISTINCT person, local_date FROM samples WHERE device_model LIKE '%Watch%'),
             watch_days AS (SELECT d.person, count(*) - count(w.local_date) AS days_without_watch_data
                            FROM daily d LEFT JOIN watch w ON w.person = d.person AND w.local_date = d.date
                            GROUP BY d.person),
             gaps AS (SELECT person, datediff(date, lag(date) OVER (PARTITION BY person ORDER BY date)) AS gap FROM daily)
        SELECT wd.person, wd.days_without_watch_data,
               sum(CASE WHEN g.gap > 7 THEN 1 ELSE 0 END) AS gaps_over_7_days
        FROM watch_days wd JOIN gaps g ON g.person = wd.person
        GROUP BY wd.person, wd.days_without_watch_data""",
}


def cohort_tables(spark, out):
    dataset = out + "/dataset"
    for table in ["daily", "weekly", "samples"]:
        spark.read.parquet(dataset + "/" + table).createOrReplaceTempView(table)
    # The dataset's per-day data_quality (the cohort table of that name is another thing).
    spark.read.parquet(dataset + "/data_quality").createOrReplaceTempView("day_quality")
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(len(COHORT_SQL)) as pool:
        for done in [pool.submit(lambda name, sql: spark.sql(sql).coalesce(1).write.mode("overwrite")
                                 .parquet(out + "/cohort/" + name), name, sql) for name, sql in COHORT_SQL.items()]:
            done.result()


STATUS_FIELDS = [("person", "string"), ("export", "string"), ("exit_code", "long"), ("message", "string"),
                 ("samples", "long"), ("days", "long"), ("seconds", "double"), ("size", "long"), ("mtime", "double"),
                 ("sha256", "string"), ("status", "string"), ("healthetl", "string"), ("tables", "string")]


def clear_leftovers(hadoop, folder):
    """What a killed job's writer left in a table folder: its staging folders, never committed.
    Readers skip them (hidden names); removed here so they do not pile up."""
    for name, is_dir in hadoop.children(folder):
        if name.startswith(".spark-staging-") or name == "_temporary":
            hadoop.delete(folder + "/" + name)


def write_partitioned(frame, uri, columns):
    """Spark's writer, dynamic partition overwrite: the partitions in `frame` are replaced, every
    other one stays as it was."""
    (frame.write.mode("overwrite").option("partitionOverwriteMode", "dynamic")
     .partitionBy(*columns).parquet(uri))


def main(argv):
    args = parse_args(argv)
    # Local mode: the executors run this Python (spark-submit and a cluster set their own).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark import StorageLevel
    from pyspark.sql import SparkSession
    from pyspark.sql.pandas.types import from_arrow_schema
    from pyspark.sql.types import (BinaryType, DoubleType, IntegerType, LongType, StringType, StructField,
                                   StructType)
    import pyarrow as pa
    builder = SparkSession.builder.appName("healthetl cohort")
    # Under spark-submit (it hands this Python its gateway) the master is spark-submit's; a plain
    # `python cohort_job.py` runs in local mode unless --master or SPARK_MASTER names another.
    if args.master or not os.environ.get("PYSPARK_GATEWAY_PORT"):
        builder = builder.master(args.master or os.environ.get("SPARK_MASTER", "local[2]"))
    if args.release:
        # Unpacked by Spark in every executor's working folder (and the driver's, in local mode).
        builder = builder.config("spark.archives", "%s#%s" % (os.path.abspath(args.release), RELEASE_ALIAS))
    spark = (builder.config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
             # Parquet timestamps as healthetl writes them (INT64 microseconds, UTC), not INT96.
             .config("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
             # One file's bytes per Arrow batch into mapInArrow (a batch of 10,000 would not fit).
             .config("spark.sql.execution.arrow.maxRecordsPerBatch", "1")
             # person=007 is the person "007", not 7.
             .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false").getOrCreate())
    sc = spark.sparkContext
    out = output_uri(args.out)
    dataset, status_uri = out + "/dataset", out + "/status"
    hadoop = Hadoop(spark, out)
    exports = list_exports(spark, args.exports)
    if not exports:
        print("cohort: no exports in %s" % args.exports, file=sys.stderr)
        return 66
    for folder in [dataset + "/" + table for table in DATASET_TABLES] + [status_uri]:
        clear_leftovers(hadoop, folder)
    previous = {}
    if any(name.startswith("person=") for name, _ in hadoop.children(status_uri)):
        previous = {r["person"]: r.asDict() for r in spark.read.parquet(status_uri).collect()}
    # Who has partitions now (a listing per table, not a call per person): a skip needs every
    # table the person had rows in (the status row's `tables`).
    present = {table: {name[7:] for name, _ in hadoop.children(dataset + "/" + table) if name.startswith("person=")}
               for table in DATASET_TABLES}
    archives = [entry.split("#", 1)[1] if "#" in entry else entry.rstrip("/").rsplit("/", 1)[-1]
                for entry in sc.getConf().get("spark.archives", "").split(",") if entry]
    healthetl = args.healthetl
    if healthetl and os.path.exists(healthetl):
        healthetl = os.path.abspath(healthetl)
    settings = {"healthetl": healthetl, "archives": archives, "scratch": args.scratch,
                "pipeline": args.pipeline and os.path.abspath(args.pipeline), "force": args.force,
                "previous": previous, "present": present}
    # One task per export, one partition each: a 4 GB export never waits behind ten others. Kept
    # (memory, else disk) for the writes below; a lost executor's share is imported again.
    imported = (sc.parallelize(exports, len(exports)).flatMap(lambda item: run_one(item, settings))
                .persist(StorageLevel.MEMORY_AND_DISK))
    # The small part comes back to the driver: status rows, and which files each person has.
    facts = imported.map(lambda r: r if r[0] == "status" else ("part", r[1], r[2], r[3], r[6])).collect()
    rows = [r[1] for r in facts if r[0] == "status"]
    written = {}
    for _, person, table, year, count in (r for r in facts if r[0] == "part"):
        if count:  # a file of no rows writes no partition
            written.setdefault(table, {}).setdefault(person, set()).add(year)
    # One schema per table (healthetl writes one), not one per file: 10,000 people's would be MBs.
    schemas = dict(imported.filter(lambda r: r[0] == "part").map(lambda r: (r[2], r[5]))
                   .reduceByKey(lambda a, b: a).collect())
    parts_schema = StructType([StructField("person", StringType()), StructField("table", StringType()),
                               StructField("year", IntegerType()), StructField("data", BinaryType())])
    ok = sorted(r["person"] for r in rows if r["status"] == "ok")
    # The people's files as a DataFrame, cached (memory, else disk): each table's write filters it
    # in the JVM. Fewer tasks per write than exports (a core's worth, or 20 people a task): the
    # writer sorts a task's rows by partition, so every person still gets one file per partition.
    slices = max(1, min(len(ok), max(sc.defaultParallelism, len(ok) // 20)))
    parts = (spark.createDataFrame(imported.filter(lambda r: r[0] == "part").map(lambda r: r[1:5]), parts_schema)
             .coalesce(slices).persist(StorageLevel.MEMORY_AND_DISK))

    def write_table(table):
        # The table's schema: one person's file's (healthetl writes one schema per table).
        arrow_schema = pa.ipc.read_schema(pa.py_buffer(schemas[table]))
        columns = ["person"] + (["year"] if table == "samples" else [])
        spark_schema = StructType(from_arrow_schema(arrow_schema).fields + [StructField("person", StringType())]
                                  + ([StructField("year", IntegerType())] if table == "samples" else []))
        frame = (parts.where(parts.table == table).select("person", "year", "data")
                 .mapInArrow(arrow_decoder(table, arrow_schema), spark_schema))
        if table in written:
            write_partitioned(frame, dataset + "/" + table, columns)
        # Dynamic overwrite replaces the partitions written; what a re-imported person no longer
        # has (a year, a table now empty) is removed here, by Hadoop.
        for person in ok:
            if person not in previous:
                continue
            mine = written.get(table, {}).get(person)
            folder = "%s/%s/person=%s" % (dataset, table, person)
            if mine is None:
                if hadoop.exists(folder):
                    hadoop.delete(folder)
            elif table == "samples":
                for name, _ in hadoop.children(folder):
                    if name.startswith("year=") and int(name[5:]) not in mine:
                        hadoop.delete(folder + "/" + name)

    # The tables' writes are independent jobs: a few at a time keep the executors busy while the
    # driver plans and commits the others.
    if ok:
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(4) as pool:
            for done in [pool.submit(write_table, table) for table in DATASET_TABLES if table in schemas]:
                done.result()
    parts.unpersist()
    # The status last: a job killed before this line leaves the old rows, so the next run imports
    # again whoever it did not finish.
    types = {"string": StringType(), "long": LongType(), "double": DoubleType()}
    status_schema = StructType([StructField(n, types[t]) for n, t in STATUS_FIELDS])
    status = spark.createDataFrame([tuple(r[n] for n, _ in STATUS_FIELDS) for r in rows], status_schema)
    write_partitioned(status.repartition(1), status_uri, ["person"])
    imported.unpersist()
    if any(name.startswith("person=") for name, _ in hadoop.children(dataset + "/daily")):
        cohort_tables(spark, out)
    for r in sorted(rows, key=lambda r: r["person"]):
        print("%s: %s%s" % (r["person"], r["status"], (" (exit %s: %s)" % (r["exit_code"], r["message"])) if r["status"] == "failed" else ""))
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

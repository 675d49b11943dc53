#!/usr/bin/env python3
"""The cohort job: many participants' Apple Health exports into one Hive-partitioned Parquet
dataset, with Apache Spark. PySpark only drives: every byte of health data is parsed, counted
and aggregated by `healthetl`, which the executors run, one task per export.

    python spark/cohort_job.py --exports DIR_OR_LIST --out OUT [--release TARBALL | --healthetl PATH] [--force]

--release ships a release tarball (`make dist`: dist/healthetl-VERSION-linux-ARCH.tar.gz) to the
executors through `spark.archives`; each unpacks it in its working folder and runs the binary
inside, so a cluster needs neither a Swift toolchain nor an installed healthetl. --healthetl
names a binary every executor already has (default: `healthetl` on PATH).

OUT/dataset/   the dataset (see docs/PEOPLE.md): <table>/person=ID/part-0.parquet, samples by year
OUT/status/    one row per person and run: person, export, exit_code, message, samples, days,
               seconds, size, mtime, sha256, status (ok, failed, skipped), healthetl (the release,
               commit and build date of the binary that ran)
OUT/cohort/    cohort tables computed with Spark SQL (person_percentiles, cohort_weekly,
               days_with_data: valid days and the yield per person, data_quality)

Exports: a folder (NAME.zip, NAME.xml or NAME/ is person NAME) or a list file (one path or
URI a line, the person named after the file). `hdfs://` and `s3a://` URIs are listed by the
driver through Spark's Hadoop file system and fetched by the executors with `hadoop fs -get`.
A re-run skips a person whose export is unchanged (size, modification time and SHA-256 as
recorded) unless --force; one broken export is a failed row, never a failed job.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

DATASET_TABLES = ["daily", "weekly", "monthly", "yearly", "sleep", "workouts", "activity_summaries", "ecg_recordings",
                  "ecg_samples", "daily_vitals", "blood_pressure", "hrv_measurements", "workout_details",
                  "reconciliation", "reconciliation_sources", "data_quality", "sources", "samples"]
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--exports", required=True, help="a folder of exports or a list file")
    p.add_argument("--out", required=True, help="output folder (local path)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--release", default=None, help="a release tarball (make dist) shipped to the executors")
    which.add_argument("--healthetl", default=os.environ.get("HEALTHETL", "healthetl"), help="the healthetl binary")
    p.add_argument("--scratch", default=None, help="executor-local scratch folder (default: OUT/.scratch)")
    p.add_argument("--pipeline", default=None, help="pipeline file passed to healthetl import")
    p.add_argument("--master", default=None, help="Spark master (default: from spark-submit, else local[2])")
    p.add_argument("--force", action="store_true", help="import unchanged exports again")
    return p.parse_args(argv)


def person_of(path):
    """Person NAME of NAME.zip, NAME.xml or NAME/."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    for ext in (".zip", ".xml"):
        if name.lower().endswith(ext):
            return name[: -len(ext)]
    return name


def list_exports(spark, source):
    """(person, path) of every export in a folder or list file."""
    if os.path.isfile(source):
        with open(source) as f:
            paths = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    elif "://" in source and not source.startswith("file://"):
        jvm = spark._jvm
        hpath = jvm.org.apache.hadoop.fs.Path(source)
        fs = hpath.getFileSystem(spark._jsc.hadoopConfiguration())
        paths = [str(s.getPath()) for s in fs.listStatus(hpath)]
    else:
        paths = [os.path.abspath(os.path.join(source, n)) for n in sorted(os.listdir(source)) if not n.startswith(".")]
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


def swap_in(staged, final, trash):
    """Renames `staged` to `final`; the old one moved to `trash` first and removed after. Only
    whole partitions ever stand in a table folder (DuckDB's glob reads hidden folders too)."""
    os.makedirs(os.path.dirname(final), exist_ok=True)
    os.makedirs(trash, exist_ok=True)
    old = os.path.join(trash, "%s-%s" % (os.path.basename(final), uuid.uuid4().hex))
    had_old = os.path.exists(final)
    if had_old:
        os.rename(final, old)
    try:
        os.rename(staged, final)
    except OSError:
        if had_old:
            os.rename(old, final)
        raise
    if had_old:
        shutil.rmtree(old, ignore_errors=True)


def publish_person(local_dataset, shared_dataset, person):
    """Copies a person's partitions from the executor's scratch into the shared dataset: each
    table copied beside (hidden), then swapped in. A reader never sees half a person's table."""
    staged = []
    staging = os.path.join(shared_dataset, ".staging", "%s-%s" % (person, uuid.uuid4().hex))
    for table in DATASET_TABLES:
        src = os.path.join(local_dataset, table, "person=" + person)
        if not os.path.isdir(src):
            raise RuntimeError("healthetl wrote no %s partition for %s" % (table, person))
        tmp = os.path.join(staging, table)
        shutil.copytree(src, tmp)
        staged.append((tmp, os.path.join(shared_dataset, table, "person=" + person)))
    for tmp, final in staged:
        swap_in(tmp, final, os.path.join(shared_dataset, ".trash"))
    shutil.rmtree(staging, ignore_errors=True)


RELEASE_ALIAS = "healthetl-release"


def executor_binary(settings):
    """The binary this executor runs: the one inside the release tarball Spark unpacked into
    its working folder (under RELEASE_ALIAS), or the path the job was given."""
    if not settings["release"]:
        return settings["healthetl"]
    from pyspark import SparkFiles
    unpacked = SparkFiles.get(RELEASE_ALIAS)
    found = glob.glob(os.path.join(unpacked, "healthetl-*", "bin", "healthetl"))
    if len(found) != 1:
        raise RuntimeError("the release unpacked in %s holds %d healthetl binaries, not one" % (unpacked, len(found)))
    return found[0]


def run_one(item, settings):
    """One executor task: import one export with healthetl, publish the person's partitions."""
    person, path = item
    started = time.time()
    row = {"person": person, "export": path, "exit_code": None, "message": "", "samples": None, "days": None,
           "seconds": 0.0, "size": None, "mtime": None, "sha256": None, "status": "failed", "healthetl": None}
    try:
        healthetl = executor_binary(settings)
        if not ID_PATTERN.match(person):
            raise ValueError("'%s' is not a person id (letters, digits, '-' and '_', at most 64)" % person)
        local = path
        if "://" in path and not path.startswith("file://"):
            local = os.path.join(settings["scratch"], "downloads", os.path.basename(path))
            os.makedirs(os.path.dirname(local), exist_ok=True)
            subprocess.run(["hadoop", "fs", "-get", "-f", path, local], check=True, capture_output=True)
        row["size"], row["mtime"], row["sha256"] = fingerprint(local)
        previous = settings["previous"].get(person)
        if (not settings["force"] and previous and previous["status"] in ("ok", "skipped")
                and (previous["size"], previous["mtime"], previous["sha256"]) == (row["size"], row["mtime"], row["sha256"])
                and all(os.path.isdir(os.path.join(settings["dataset"], t, "person=" + person)) for t in DATASET_TABLES)):
            row.update(status="skipped", exit_code=0, message="export unchanged",
                       samples=previous["samples"], days=previous["days"], healthetl=previous.get("healthetl"))
            return row
        root = os.path.join(settings["scratch"], "people")
        command = [healthetl, "import", local, "--out", root, "--person", person, "--quiet", "--json"]
        if settings["pipeline"]:
            command += ["--pipeline", settings["pipeline"]]
        result = subprocess.run(command, capture_output=True, text=True)
        row["exit_code"] = result.returncode
        if result.returncode != 0:
            row["message"] = (result.stderr.strip().splitlines() or ["exit %d" % result.returncode])[-1][:500]
            return row
        summary = json.loads(result.stdout)
        row["samples"] = summary.get("samples")
        row["healthetl"] = summary.get("healthetl")
        publish_person(os.path.join(root, "dataset"), settings["dataset"], person)
        # The days the person has (an incremental run's summary counts the days it recomputed).
        facts = subprocess.run([healthetl, "people", "show", person, "--out", root, "--json"],
                               capture_output=True, text=True, check=True)
        row["days"] = json.loads(facts.stdout)["days"]
        row.update(status="ok", message=summary.get("mode", ""))
        return row
    except Exception as error:  # a broken export is a failed row, never a failed job
        row["message"] = ("%s: %s" % (type(error).__name__, error))[:500]
        return row
    finally:
        row["seconds"] = round(time.time() - started, 3)


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


def cohort_tables(spark, dataset, out):
    for table in ["daily", "weekly", "samples"]:
        spark.read.parquet(os.path.join(dataset, table)).createOrReplaceTempView(table)
    # The dataset's per-day data_quality (the cohort table of that name is another thing).
    spark.read.parquet(os.path.join(dataset, "data_quality")).createOrReplaceTempView("day_quality")
    for name, sql in COHORT_SQL.items():
        spark.sql(sql).write.mode("overwrite").parquet(os.path.join(out, "cohort", name))


def previous_status(spark, status_path):
    if not os.path.isdir(status_path):
        return {}
    rows = spark.read.parquet(status_path).collect()
    return {r["person"]: r.asDict() for r in rows}


def main(argv):
    args = parse_args(argv)
    # Local mode: the executors run this Python (a cluster sets its own).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession
    builder = SparkSession.builder.appName("healthetl cohort")
    if args.master or not os.environ.get("SPARK_HOME_SUBMIT"):
        builder = builder.master(args.master or os.environ.get("SPARK_MASTER", "local[2]"))
    if args.release:
        # Unpacked by Spark in every executor's working folder (and the driver's, in local mode).
        builder = builder.config("spark.archives", "%s#%s" % (os.path.abspath(args.release), RELEASE_ALIAS))
    spark = builder.config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC").getOrCreate()
    out = os.path.abspath(args.out)
    dataset, status_path = os.path.join(out, "dataset"), os.path.join(out, "status")
    os.makedirs(dataset, exist_ok=True)
    # What a killed run left: copies never swapped in, old partitions never removed.
    for leftover in (".staging", ".trash"):
        shutil.rmtree(os.path.join(dataset, leftover), ignore_errors=True)
    exports = list_exports(spark, args.exports)
    if not exports:
        print("cohort: no exports in %s" % args.exports, file=sys.stderr)
        return 66
    settings = {"healthetl": os.path.abspath(args.healthetl) if os.path.exists(args.healthetl) else args.healthetl,
                "scratch": os.path.abspath(args.scratch or os.path.join(out, ".scratch")),
                "dataset": dataset, "pipeline": args.pipeline and os.path.abspath(args.pipeline),
                "force": args.force, "previous": previous_status(spark, status_path), "release": bool(args.release)}
    # One task per export, one partition each: a 4 GB export never waits behind ten others.
    rows = (spark.sparkContext.parallelize(exports, len(exports))
            .map(lambda item: run_one(item, settings)).collect())
    from pyspark.sql.types import (DoubleType, LongType, StringType, StructField, StructType)
    schema = StructType([StructField("person", StringType()), StructField("export", StringType()),
                         StructField("exit_code", LongType()), StructField("message", StringType()),
                         StructField("samples", LongType()), StructField("days", LongType()),
                         StructField("seconds", DoubleType()), StructField("size", LongType()),
                         StructField("mtime", DoubleType()), StructField("sha256", StringType()),
                         StructField("status", StringType()), StructField("healthetl", StringType())])
    status_rows = [tuple(r[f.name] for f in schema.fields) for r in rows]
    tmp_status = os.path.join(out, ".status-" + uuid.uuid4().hex)
    spark.createDataFrame(status_rows, schema).coalesce(1).write.parquet(tmp_status)
    swap_in(tmp_status, status_path, os.path.join(out, ".trash"))
    shutil.rmtree(os.path.join(out, ".trash"), ignore_errors=True)
    for leftover in (".staging", ".trash"):
        shutil.rmtree(os.path.join(dataset, leftover), ignore_errors=True)
    daily = os.path.join(dataset, "daily")
    if os.path.isdir(daily) and any(d.startswith("person=") for d in os.listdir(daily)):
        cohort_tables(spark, dataset, out)
    for r in rows:
        print("%s: %s%s" % (r["person"], r["status"], (" (exit %s: %s)" % (r["exit_code"], r["message"])) if r["status"] == "failed" else ""))
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

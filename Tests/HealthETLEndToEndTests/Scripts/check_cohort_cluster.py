#!/usr/bin/env python3
"""Checks the Spark cohort job on a real standalone cluster (tooling: it starts the cluster, runs
spark-submit and reads what Spark wrote; healthetl on the executors parses every byte).

    check_cohort_cluster.py HEALTHETL REPO WORKDIR TARBALL

A master and two workers, each its own JVM (spark-class ...Master / ...Worker) with its own work
and scratch folders, on loopback only (SPARK_LOCAL_IP=127.0.0.1, the driver's host and bind
address 127.0.0.1). Six exports, one broken, one an Android Health Connect export: the job is
submitted with `spark-submit --master spark://127.0.0.1:PORT --archives TARBALL` and --out a
`file:` URI. Checked: five people and one failed status row; every table of every person equal
(schema and rows) to a single-machine `healthetl import --person` of the same export; nothing
written under the job's working folder (the old `file:` folder); no Python of the driver or the
executors wrote into --out (out_tripwire/sitecustomize.py refuses and logs it); a re-run after
changing one export, with a worker killed mid-job (its whole process group), still finishes,
rewrites that person's files only, and leaves the dataset whole. Prints one line per check,
exits non-zero on the first failure, and stops the cluster whatever happens.
"""
import glob, json, os, shutil, signal, socket, subprocess, sys, time

import duckdb
import pyarrow.parquet as pq

from cohort_compare import TABLES, differences

healthetl, repo, work, tarball = sys.argv[1:5]
python = sys.executable
import pyspark  # noqa: E402  (the venv's Spark: spark-class and spark-submit come with it)
spark_home = os.path.dirname(pyspark.__file__)
spark_class, spark_submit = os.path.join(spark_home, "bin", "spark-class"), os.path.join(spark_home, "bin", "spark-submit")
job = os.path.join(repo, "spark", "cohort_job.py")
generator = os.path.join(repo, "tools", "generate_export.py")
android_generator = os.path.join(repo, "tools", "health_connect", "generate.py")
tripwire = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out_tripwire")
exports, out, plain = os.path.join(work, "exports"), os.path.join(work, "out"), os.path.join(work, "plain")
cwd, logs = os.path.join(work, "cwd"), os.path.join(work, "logs")
tripwire_log = os.path.join(work, "tripwire.log")
APPLE = {"anna": ("Europe/Berlin", 3, "xml", 14), "ben": ("America/New_York", 4, "zip", 12),
         "chen": ("Asia/Shanghai", 5, "xml", 12), "dora": ("Australia/Sydney", 6, "xml", 10)}
ANDROID = "andy"
PEOPLE = sorted(list(APPLE) + [ANDROID])
LOOPBACK = {"SPARK_LOCAL_IP": "127.0.0.1", "SPARK_LOCAL_HOSTNAME": "localhost"}
JVM_FOR_TESTS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
started_at = time.monotonic()
cluster = []  # (name, Popen) of the master and the workers


def fail(message):
    print("FAIL: " + message, flush=True)
    raise SystemExit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print("ok: %s (%.1f s)" % (message, time.monotonic() - started_at), flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(path_glob, text, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for f in glob.glob(path_glob):
            with open(f, errors="replace") as h:
                if text in h.read():
                    return f
        time.sleep(0.1)
    fail("%s: no '%s' in %s within %d s" % (what, text, path_glob, seconds))


def base_env():
    # No swift and no healthetl on the PATH: every import is the tarball's binary.
    path = os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep)
                           if d and not os.path.exists(os.path.join(d, "swift")) and not os.path.exists(os.path.join(d, "healthetl")))
    env = dict(os.environ, PATH=path, PYSPARK_PYTHON=python, **LOOPBACK)
    # Seven short-lived JVMs on two cores: the client compiler only and one GC thread. Measured:
    # 141 CPU-s for the check against 226 with the JVM's defaults (the C2 compiler's threads).
    env.setdefault("JAVA_TOOL_OPTIONS", JVM_FOR_TESTS)
    env.update(PYTHONPATH=tripwire, HEALTHETL_TRIPWIRE_OUT=out, HEALTHETL_TRIPWIRE_LOG=tripwire_log)
    env.pop("SPARK_HOME", None)
    return env


def start(name, arguments, extra):
    log = open(os.path.join(logs, name + ".log"), "w")
    p = subprocess.Popen([spark_class] + arguments, stdout=log, stderr=subprocess.STDOUT, env=dict(base_env(), **extra),
                         start_new_session=True, cwd=work)
    cluster.append((name, p))
    return p


def stop_cluster():
    for name, p in reversed(cluster):
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()


def submit(*extra, background=False):
    command = [spark_submit, "--master", master_url, "--deploy-mode", "client", "--archives", tarball,
               "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
               "--conf", "spark.pyspark.python=" + python, "--conf", "spark.pyspark.driver.python=" + python,
               "--conf", "spark.executor.memory=640m", "--conf", "spark.executor.cores=1", "--conf", "spark.cores.max=2",
               "--conf", "spark.ui.enabled=false", "--conf", "spark.task.maxFailures=4",
               # Small data: a few shuffle partitions, not 200 (adaptive execution merges them anyway).
               "--conf", "spark.sql.shuffle.partitions=4",
               "--conf", "spark.executorEnv.PYTHONPATH=" + tripwire,
               job, "--exports", exports, "--out", "file://" + out] + list(extra)
    log = open(os.path.join(logs, "submit-%d.log" % len(glob.glob(os.path.join(logs, "submit-*.log")))), "w")
    p = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=base_env(), cwd=cwd, start_new_session=True)
    if background:
        return p, log.name
    try:
        p.wait(timeout=240)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        fail("spark-submit took more than 240 s: " + open(log.name).read()[-3000:])
    return finish(p, log.name)


def finish(p, log):
    if p.returncode != 0:
        fail("spark-submit exited %d: %s" % (p.returncode, open(log, errors="replace").read()[-4000:]))
    return {row["person"]: row for row in pq.read_table(os.path.join(out, "status")).to_pylist()}


def plain_import(person, path):
    root = os.path.join(plain, person)
    shutil.rmtree(root, ignore_errors=True)
    r = subprocess.run([healthetl, "import", path, "--out", root, "--person", person, "--quiet", "--json"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail("the single-machine import of %s exited %d: %s" % (person, r.returncode, r.stderr[-2000:]))
    return json.loads(r.stdout)


def check_equal_to_plain(person, label):
    """Every table of the person: Spark's partition = healthetl's own partition of a single import."""
    compared, problems = differences(os.path.join(out, "dataset"), os.path.join(plain, person), person)
    check(compared > 0 and not problems, "%s: %s every table = the single-machine import's (%d rows) %s"
          % (person, label, compared, "; ".join(problems)))


def files_state():
    return {f: (os.stat(f).st_ino, os.stat(f).st_mtime_ns)
            for f in glob.glob(os.path.join(out, "dataset", "*", "person=*", "**", "*.parquet"), recursive=True)}


def make_apple(person, days=None, seed=None):
    zone, s, layout, d = APPLE[person]
    path = os.path.join(exports, person + (".zip" if layout == "zip" else ".xml"))
    subprocess.run([python, generator, "--out", path, "--layout", layout, "--zone", zone, "--seed", str(seed or s), "--days",
                    str(days or d), "--start", "2024-05-0%d" % s], check=True, capture_output=True)
    return path


try:
    for folder in (exports, cwd, logs):
        os.makedirs(folder)
    # The tripwire itself first: it must refuse a write into --out, or its silence proves nothing.
    probe = subprocess.run([python, "-c", "open(%r, 'w')" % os.path.join(out, "probe")], env=base_env(), capture_output=True, text=True)
    check(probe.returncode != 0 and "tripwire" in probe.stderr and os.path.exists(tripwire_log),
          "the tripwire refuses a Python write into --out")
    os.remove(tripwire_log)
    os.remove(tripwire_log + ".armed")

    paths = {p: make_apple(p) for p in APPLE}
    paths[ANDROID] = os.path.join(exports, ANDROID + ".zip")
    subprocess.run([python, android_generator, "--synthetic", "--days", "30", "--seed", "3", paths[ANDROID]],
                   check=True, capture_output=True)
    with open(os.path.join(exports, "broken.xml"), "w") as f:
        f.write("<HealthData locale=\"en_US\">\n<Record type=\"HKQuantityTypeIdentifierStepCount\"")
    summaries = {p: plain_import(p, paths[p]) for p in PEOPLE}
    check(summaries[ANDROID].get("platform") != summaries["anna"].get("platform"),
          "the single imports: %s is %s, anna %s" % (ANDROID, summaries[ANDROID].get("platform"), summaries["anna"].get("platform")))

    # The cluster: a master and two workers, each a JVM of its own, its own folders, loopback only.
    master_port = free_port()
    master_url = "spark://127.0.0.1:%d" % master_port
    start("master", ["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(master_port),
                     "--webui-port", str(free_port())], {})
    wait_for(os.path.join(logs, "master.log"), "I have been elected leader", 90, "the master")
    workers = {}
    for n in (1, 2):
        folder = os.path.join(work, "worker%d" % n)
        os.makedirs(os.path.join(folder, "work"))
        os.makedirs(os.path.join(folder, "scratch"))
        workers[n] = (start("worker%d" % n, ["org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                                              "--webui-port", str(free_port()), "--cores", "1", "--memory", "1g",
                                              "--work-dir", os.path.join(folder, "work"), master_url],
                            {"SPARK_LOCAL_DIRS": os.path.join(folder, "scratch"), "SPARK_WORKER_DIR": os.path.join(folder, "work")}),
                      folder)
    for n in (1, 2):
        wait_for(os.path.join(logs, "worker%d.log" % n), "Successfully registered with master", 90, "worker %d" % n)
    check(True, "a master and two workers up on 127.0.0.1")

    # Run 1: six exports, one broken, through the cluster.
    status = submit()
    check(sorted(status) == sorted(PEOPLE + ["broken"]), "a status row per export: " + ", ".join(sorted(status)))
    check(all(status[p]["status"] == "ok" for p in PEOPLE), "five people imported, an iPhone and an Android person alike")
    check(status["broken"]["status"] == "failed" and status["broken"]["exit_code"] == 65 and "broken.xml" in status["broken"]["message"],
          "the broken export is one failed row: " + status["broken"]["message"])
    # The version of the tarball's own binary (the executors unpack the same file).
    shipped = os.path.join(work, "shipped")
    os.makedirs(shipped)
    subprocess.run(["tar", "-xzf", tarball, "-C", shipped], check=True)
    ran = subprocess.run(glob.glob(os.path.join(shipped, "healthetl-*", "bin", "healthetl")) + ["--version", "--json"],
                         capture_output=True, text=True, check=True).stdout
    expected = "%(version)s (commit %(commit)s, built %(build_date)s)" % json.loads(ran)
    check(all(status[p]["healthetl"] == expected for p in PEOPLE), "the executors ran the release: " + status["anna"]["healthetl"])
    check(not glob.glob(os.path.join(out, "dataset", "*", "person=broken")), "the broken export wrote no partition")
    for p in PEOPLE:
        check_equal_to_plain(p, "")
    db = duckdb.connect()
    people = [r[0] for r in db.execute("SELECT DISTINCT person FROM read_parquet('%s/dataset/daily/*/*.parquet', "
                                       "hive_partitioning = true) ORDER BY 1" % out).fetchall()]
    check(people == PEOPLE, "DuckDB reads five people from the cluster's daily table: " + ", ".join(people))
    check(all(os.path.isdir(os.path.join(out, "cohort", t)) for t in ("person_percentiles", "cohort_weekly", "days_with_data", "data_quality")),
          "the cohort tables")
    for n in (1, 2):
        check("Asked to launch executor" in open(os.path.join(logs, "worker%d.log" % n), errors="replace").read(),
              "worker %d launched an executor for the job (not local mode)" % n)
    check(os.listdir(cwd) == [], "nothing under the job's working folder (no 'file:' folder): %s" % os.listdir(cwd))
    armed = open(tripwire_log + ".armed").read() if os.path.exists(tripwire_log + ".armed") else ""
    for n, (_, folder) in workers.items():
        check(os.path.join(folder, "work") in armed, "worker %d's executor Python was watched by the tripwire" % n)
    check(not os.path.exists(tripwire_log), "no Python of the driver or the executors wrote into --out: "
          + (open(tripwire_log).read()[:2000] if os.path.exists(tripwire_log) else "none"))
    scratch = glob.glob(os.path.join(work, "worker*", "scratch", "**", "healthetl-*"), recursive=True)
    check(scratch == [], "each task's scratch folder removed: %s" % scratch[:3])

    # Run 2: one export changed, and one worker killed (its whole process group: the worker JVM,
    # its executor, their Pythons, healthetl) as soon as it runs a task of the job: Spark runs the
    # task again on the other worker, and only the changed person's files are rewritten.
    before = files_state()
    paths["anna"] = make_apple("anna", days=16, seed=13)
    plain_import("anna", paths["anna"])
    _, folder2 = workers[2]
    earlier = set(glob.glob(os.path.join(folder2, "work", "app-*")))
    job_process, job_log = submit(background=True)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and job_process.poll() is None:
        logs2 = [f for f in glob.glob(os.path.join(folder2, "work", "app-*", "*", "stderr"))
                 if os.path.dirname(os.path.dirname(f)) not in earlier]
        if any("Running task" in open(f, errors="replace").read() for f in logs2):
            break
        time.sleep(0.05)
    check(job_process.poll() is None, "worker 2 runs a task of the re-run")
    os.killpg(workers[2][0].pid, signal.SIGKILL)
    workers[2][0].wait()
    try:
        job_process.wait(timeout=240)
    except subprocess.TimeoutExpired:
        os.killpg(job_process.pid, signal.SIGKILL)
        fail("the job did not finish within 240 s after the kill: " + open(job_log).read()[-3000:])
    again = finish(job_process, job_log)
    driver_log = open(job_log, errors="replace").read()
    check("Lost executor" in driver_log or "ExecutorLostFailure" in driver_log,
          "the driver lost worker 2's executor mid-job, and the job finished")
    check(again["anna"]["status"] == "ok" and all(again[p]["status"] == "skipped" for p in PEOPLE if p != "anna")
          and again["broken"]["status"] == "failed", "the re-run imports the changed export only: "
          + ", ".join("%s %s" % (p, again[p]["status"]) for p in sorted(again)))
    after = files_state()
    mine = lambda f: "/person=anna/" in f
    check({f: s for f, s in before.items() if not mine(f)} == {f: s for f, s in after.items() if not mine(f)},
          "every other person's files untouched (same files, inodes and modification times)")
    changed = [f for f in after if mine(f)]
    check(changed and not any(f in after for f in before if mine(f)), "anna's files all rewritten (%d files)" % len(changed))
    for p in PEOPLE:
        check_equal_to_plain(p, "after the change and the kill,")
    for table in TABLES:
        stray = [n for n in os.listdir(os.path.join(out, "dataset", table)) if not n.startswith(("person=", "_SUCCESS", "._SUCCESS"))] \
            if os.path.isdir(os.path.join(out, "dataset", table)) else []
        if stray:
            fail("%s holds %s" % (table, stray))
    check(not os.path.exists(tripwire_log), "still no Python write into --out")
    print("cohort cluster checks passed in %.0f s" % (time.monotonic() - started_at), flush=True)
finally:
    stop_cluster()

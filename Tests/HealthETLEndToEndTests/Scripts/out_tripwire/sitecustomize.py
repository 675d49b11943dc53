"""A tripwire for the Spark cohort job's test (tooling): loaded by every Python the test starts
with this folder on PYTHONPATH (the driver, each executor's PySpark workers), it refuses, and
logs, every file operation of Python's on a path under HEALTHETL_TRIPWIRE_OUT: open for writing,
mkdir, rename, remove, copy, chmod, symlink. Only Spark's JVM (its writer, Hadoop's FileSystem)
may write there; a job whose Python wrote into --out (shutil.copytree, os.rename, open(..., "w"))
fails with PermissionError and leaves a line in HEALTHETL_TRIPWIRE_LOG. Each Python that loads it
appends "armed PID CWD ARGV" to HEALTHETL_TRIPWIRE_LOG.armed, so the test can see that the
executors' Pythons were watched, not merely the driver's."""
import os
import sys

_OUT = os.environ.get("HEALTHETL_TRIPWIRE_OUT")
_LOG = os.environ.get("HEALTHETL_TRIPWIRE_LOG")

if _OUT and _LOG:
    _OUT = os.path.realpath(_OUT)
    _WRITE_EVENTS = {"os.mkdir", "os.rename", "os.remove", "os.rmdir", "os.link", "os.symlink", "os.truncate",
                     "os.chmod", "os.chown", "os.utime", "shutil.copyfile", "shutil.copytree", "shutil.rmtree",
                     "shutil.move", "shutil.copymode", "shutil.copystat"}
    _raw_open = open

    def _inside(path):
        try:
            if isinstance(path, int):
                return False
            path = os.fsdecode(path)
            if path.startswith("file:"):
                path = path[5:].lstrip("/")
                path = "/" + path
            full = os.path.realpath(os.path.abspath(path))
            return full == _OUT or full.startswith(_OUT + os.sep)
        except Exception:
            return False

    def _writes(event, args):
        if event == "open":
            path, mode, flags = (list(args) + [None, None, None])[:3]
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND))
            return [path] if writing else []
        if event in _WRITE_EVENTS:
            return [a for a in args[:2] if isinstance(a, (str, bytes, os.PathLike))]
        return []

    _busy = [False]

    def _hook(event, args):
        if _busy[0] or (event != "open" and event not in _WRITE_EVENTS):
            return
        targets = [p for p in _writes(event, args) if _inside(p)]
        if not targets:
            return
        _busy[0] = True
        try:
            with _raw_open(_LOG, "a") as log:
                log.write("%s %s pid %d: %s\n" % (event, os.fsdecode(targets[0]), os.getpid(), " ".join(sys.argv)[:200]))
        finally:
            _busy[0] = False
        raise PermissionError("tripwire: Python may not write into the job's --out (%s %s)" % (event, targets[0]))

    with _raw_open(_LOG + ".armed", "a") as armed:
        armed.write("armed %d %s %s\n" % (os.getpid(), os.getcwd(), " ".join(sys.argv)[:200]))
    sys.addaudithook(_hook)

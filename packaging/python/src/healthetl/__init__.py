"""healthetl from Python: the wheel carries the healthetl binary (pip, pipx and uv put it on
PATH); this module finds it, runs it and opens its outputs. Parsing and analytics stay in the
binary: nothing here reads an export.

    import healthetl
    healthetl.binary()                                   # the binary's path
    summary = healthetl.run(["import", "export.zip", "--out", "health"])   # the --json summary
    daily = healthetl.read_table("health", "daily")      # health/parquet/daily.parquet, pandas

`python -m healthetl ARGS` runs the binary as `healthetl ARGS` does.
"""
import json
import os
import subprocess
import sys
import sysconfig

__version__ = "@VERSION@"
__all__ = ["HealthETLError", "binary", "run", "read_table", "__version__"]


class HealthETLError(RuntimeError):
    """healthetl exited with a non-zero code: `message` is what it said on stderr, `returncode`
    its exit code (see `healthetl help`; 66 is a missing input), `stdout` and `stderr` the rest."""

    def __init__(self, message, returncode, stdout="", stderr=""):
        super().__init__(f"{message} (healthetl exit code {returncode})")
        self.message, self.returncode, self.stdout, self.stderr = message, returncode, stdout, stderr


def binary():
    """The path of the healthetl binary this package installed (the wheel's script, in the
    environment's bin/ folder), found through the package's own list of installed files, so it
    works for pip, pipx, uv, --user and --target installs alike."""
    try:
        from importlib.metadata import PackageNotFoundError, distribution
        try:
            for f in distribution("healthetl").files or []:
                if f.name == "healthetl" and f.parent.name in ("bin", "Scripts"):
                    path = os.path.realpath(str(f.locate()))
                    if os.access(path, os.X_OK):
                        return path
        except PackageNotFoundError:
            pass
    except ImportError:
        pass
    for scheme in (None, "posix_user"):
        folder = sysconfig.get_path("scripts") if scheme is None else sysconfig.get_path("scripts", scheme)
        path = os.path.join(folder, "healthetl")
        if os.access(path, os.X_OK):
            return path
    raise FileNotFoundError("the healthetl binary of the healthetl package is missing: reinstall it (pip install --force-reinstall healthetl)")


def run(args, json_summary=True, timeout=None):
    """Runs `healthetl ARGS` and returns its `--json` summary as a dict (`--json` is added when
    `args` lacks it; the last JSON line of stdout is the summary, as `import --json` prints it).
    With `json_summary=False`, returns stdout as text and adds nothing. Raises HealthETLError
    with the message and the exit code when healthetl fails."""
    args = [str(a) for a in args]
    if json_summary and "--json" not in args:
        args.append("--json")
    done = subprocess.run([binary()] + args, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        message = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"healthetl {' '.join(args)} failed"
        raise HealthETLError(message, done.returncode, done.stdout, done.stderr)
    if not json_summary:
        return done.stdout
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise HealthETLError(f"healthetl {' '.join(args)} printed no JSON summary", 0, done.stdout, done.stderr)


def read_table(out, name):
    """The output table NAME (`daily`, `weekly`, `sleep`, …: docs/TABLES.md) of the folder OUT
    as a pandas DataFrame, read from OUT/parquet/NAME.parquet with pyarrow. Needs pandas and
    pyarrow (`pip install 'healthetl[pandas]'`)."""
    try:
        import pyarrow.parquet as parquet
        import pandas  # noqa: F401  (to_pandas needs it)
    except ImportError as missing:
        raise ImportError(f"healthetl.read_table needs pandas and pyarrow ({missing.name} is not installed): "
                          "pip install pandas pyarrow, or pip install 'healthetl[pandas]'") from missing
    path = os.path.join(os.fspath(out), "parquet", f"{name}.parquet")
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: no table {name!r} there (run healthetl import --out {os.fspath(out)} first)")
    return parquet.read_table(path).to_pandas()


def _exec(args):
    """Replaces this process with the binary (python -m healthetl)."""
    path = binary()
    os.execv(path, [path] + list(args))

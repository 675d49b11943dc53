#!/usr/bin/env bash
# Checks that two healthetl binaries give the same outputs, byte for byte, for a full import of
# the bundled sample and an incremental import of a later export on top of it: every table of
# health.sqlite (dumped row by row, ids included; the run log and run timestamps left out),
# every CSV file and every Parquet file. Used for changes that must not change behaviour
# (issue 21: the store's own module).
#   scripts/compare-outputs.sh OLD_BINARY NEW_BINARY
set -euo pipefail
old=$1 new=$2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The later export: the sample's generator with its defaults and 10 more days.
python3 "$root/tools/generate_export.py" --out "$work/later.xml" --days 40 >/dev/null 2>&1
dump() {  # every table but runs, rows in order of all columns, run timestamps (recorded_at, updated_at) blanked
  python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT IN ('runs') ORDER BY name"):
    cols = [r[1] for r in db.execute(f"PRAGMA table_info('{name}')")]
    sel = ", ".join("NULL" if c in ("recorded_at", "updated_at") else f'"{c}"' for c in cols)
    print("##", name, cols)
    order = ", ".join(str(i + 1) for i in range(len(cols)))
    for row in db.execute(f'SELECT {sel} FROM "{name}" ORDER BY {order}'):
        print(repr(row))
PY
}
# The outputs both binaries know (the pipeline of the repository may name newer ones).
echo '{"outputs": ["sqlite", "csv", "parquet"]}' > "$work/pipeline.json"
for side in old new; do
  bin=${!side}
  TZ=Europe/Berlin "$bin" import "$root/sample-data/export.xml" --out "$work/$side" --quiet --pipeline "$work/pipeline.json"
  dump "$work/$side/health.sqlite" > "$work/$side-full.dump"
  (cd "$work/$side" && find csv parquet -type f | sort | xargs sha256sum) > "$work/$side-full.sums"
  TZ=Europe/Berlin "$bin" import "$work/later.xml" --out "$work/$side" --quiet --pipeline "$work/pipeline.json"
  dump "$work/$side/health.sqlite" > "$work/$side-incr.dump"
  (cd "$work/$side" && find csv parquet -type f | sort | xargs sha256sum) > "$work/$side-incr.sums"
done
status=0
for f in full.dump full.sums incr.dump incr.sums; do
  if cmp -s "$work/old-$f" "$work/new-$f"; then
    echo "same: $f ($(wc -l < "$work/new-$f") lines)"
  else
    echo "DIFFERENT: $f"; diff "$work/old-$f" "$work/new-$f" | head -20 || true; status=1
  fi
done
exit $status

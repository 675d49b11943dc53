#!/usr/bin/env bash
# Checks that two healthetl binaries give the same outputs, byte for byte: a full import of
# the bundled sample and an incremental import of a later export on top of it, both into a
# plain output folder and for a person (`--person`, with the people's dataset). Compared:
# every table of each health.sqlite (dumped row by row, ids included; the run log and run
# timestamps left out) and every other file written (CSV, Parquet, the dataset, the report,
# the workbook, person.json); the state folder `.healthetl` is left out. Used for changes
# that must not change behaviour (issue 21: the store's own module; issue 30: outputs).
#   scripts/compare-outputs.sh OLD_BINARY NEW_BINARY [EXPORT]
# EXPORT (optional) replaces the bundled sample (a generated year, say).
set -euo pipefail
old=$1 new=$2
root=$(cd "$(dirname "$0")/.." && pwd)
first=${3:-$root/sample-data/export.xml}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The later export: the sample's generator with its defaults and 10 more days.
python3 "$root/tools/generate_export.py" --out "$work/later.xml" --days 40 >/dev/null 2>&1
dump() {  # every table but runs, rows in order of all columns, run timestamps (recorded_at, updated_at) blanked,
          # and the folder of each export the store keeps (settings.exports: where the run was given it)
  python3 - "$1" <<'PY'
import json, os, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
def exports_by_name(text):
    kept = json.loads(text)
    for entry in kept.get("entries", []):
        entry["path"] = os.path.basename(entry.get("path", ""))
    return json.dumps(kept, sort_keys=True)
db.create_function("exports_by_name", 1, exports_by_name)
for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT IN ('runs') ORDER BY name"):
    cols = [r[1] for r in db.execute(f"PRAGMA table_info('{name}')")]
    sel = ", ".join("NULL" if c in ("recorded_at", "updated_at") else f'"{c}"' for c in cols)
    if name == "settings":
        sel = "key, CASE WHEN key = 'exports' THEN exports_by_name(value) ELSE value END"
    print("##", name, cols)
    order = ", ".join(str(i + 1) for i in range(len(cols)))
    for row in db.execute(f'SELECT {sel} FROM "{name}" ORDER BY {order}'):
        print(repr(row))
PY
}
snapshot() {  # folder, name: the stores dumped, every other file's checksum
  local dir=$1 name=$2
  (cd "$dir" && find . -name health.sqlite | sort) | while read -r db; do echo "### $db"; dump "$dir/$db"; done > "$work/$name.dump"
  (cd "$dir" && find . -type f ! -path '*/.healthetl/*' ! -name '*.sqlite' ! -name '*.sqlite-*' | sort | xargs sha256sum) > "$work/$name.sums"
}
# Every output both binaries know (the repository's default pipeline).
pipeline="$root/pipelines/default.json"
for side in old new; do
  bin=${!side}
  for kind in plain person; do
    args=(--quiet --pipeline "$pipeline" --out "$work/$side-$kind")
    [ "$kind" = person ] && args+=(--person ann)
    TZ=Europe/Berlin "$bin" import "$first" "${args[@]}"
    snapshot "$work/$side-$kind" "$side-$kind-full"
    TZ=Europe/Berlin "$bin" import "$work/later.xml" "${args[@]}"
    snapshot "$work/$side-$kind" "$side-$kind-incr"
  done
done
status=0
for kind in plain person; do
  for f in full.dump full.sums incr.dump incr.sums; do
    if cmp -s "$work/old-$kind-$f" "$work/new-$kind-$f"; then
      echo "same: $kind $f ($(wc -l < "$work/new-$kind-$f") lines)"
    else
      echo "DIFFERENT: $kind $f"; diff "$work/old-$kind-$f" "$work/new-$kind-$f" | head -20 || true; status=1
    fi
  done
done
exit $status

"""What the cohort checks share (tooling): a person's tables in a Spark-written dataset against
the partitions healthetl itself writes in a single-machine `healthetl import --person`."""
import glob
import os

import pyarrow.parquet as pq

TABLES = ["daily", "weekly", "monthly", "yearly", "sleep", "workouts", "activity_summaries", "ecg_recordings",
          "ecg_samples", "daily_vitals", "blood_pressure", "hrv_measurements", "workout_details",
          "reconciliation", "reconciliation_sources", "data_quality", "sources", "samples"]


def table_rows(files):
    """Schema (names and Arrow types) and sorted rows of Parquet files, each read by itself (no
    partition columns)."""
    tables = [pq.read_table(f, partitioning=None) for f in files]
    schema = [(f.name, str(f.type)) for f in tables[0].schema] if tables else None
    rows = sorted((tuple(sorted(r.items())) for t in tables for r in t.to_pylist()), key=repr)
    return schema, rows


def partition_files(dataset, table, person):
    return sorted(glob.glob(os.path.join(dataset, table, "person=" + person, "**", "*.parquet"), recursive=True))


def differences(dataset, single_root, person, tables=TABLES):
    """(rows compared, what differs) between the person's partitions in `dataset` and those of the
    single import in `single_root` (its OUT/dataset): schema, rows and samples' year partitions.
    A table the person has no rows in has no partition in a Spark-written dataset."""
    compared, problems = 0, []
    for table in tables:
        their_schema, their_rows = table_rows(partition_files(os.path.join(single_root, "dataset"), table, person))
        mine = partition_files(dataset, table, person)
        if not their_rows:
            if mine and table_rows(mine)[1]:
                problems.append("%s: rows in the dataset, none in the single import" % table)
            continue
        my_schema, my_rows = table_rows(mine)
        if my_schema != their_schema:
            problems.append("%s: schema %s, the single import's %s" % (table, my_schema, their_schema))
        elif my_rows != their_rows:
            problems.append("%s: %d rows, the single import %d (or other values)" % (table, len(my_rows), len(their_rows)))
        if table == "samples":
            years = lambda files: sorted({os.path.basename(os.path.dirname(f)) for f in files})
            if years(mine) != years(partition_files(os.path.join(single_root, "dataset"), table, person)):
                problems.append("samples: year partitions %s" % years(mine))
        compared += len(my_rows)
    return compared, problems

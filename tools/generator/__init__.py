"""Deterministic synthetic Apple Health export generator, plus a ground-truth JSON.

Tooling for HealthETL tests and benchmarks (Python 3.11, standard library only); it makes
fixtures and never parses exports for the product. See sample-data/README.md for what the output
contains and why.

    python3 tools/generate_export.py --out PATH [--days N] [--start YYYY-MM-DD]
        [--seed S] [--zone Europe/Berlin] [--layout xml|zip|folder] [--xml-name export.xml]
        [--truth PATH] [--broken-dtd] [--vertical-tabs] [--scale K] [--export-date YYYY-MM-DD]
        [--export-time HH:MM[:SS]]
        [--validate]

(or `python3 -m tools.generator ...` from the repository root)

Design notes
* Every instant is an integer Unix time (seconds).  Every timestamp in the XML is printed with ONE
  fixed offset: the zone's UTC offset at the export instant (like real exports).
* The ground truth is computed from the in-memory sample model, not from the XML.  The model is
  built so that the Health-app merge is unambiguous: for every cumulative type, a sample of a
  lower-priority source is either fully covered by the union of higher-priority samples (it then
  contributes nothing) or disjoint from them (it then counts fully).  The generator asserts this.
* --validate re-reads the written artifact with xml.etree, recomputes the same numbers with an
  independent slice-based merge (the Health-app algorithm) and compares them with the truth.

Modules, by concern:
  cli         arguments, the run, the truth JSON
  generator   the Generator: sources, clock, record helpers, the order of generation
  plan        the person's days: workouts planned, bedtimes, movement bouts
  activity    workouts' and bouts' steps/distance/energy, flights, stand
  sleep       nights and naps
  heart       heart rate, HRV (with beat lists), resting/walking HR, SpO2, respiration
  discrete    body, glucose, blood pressure and food correlations, symptoms, VO2max
  workouts    Workout elements, events, statistics, routes and GPX files
  summaries   activity summaries, clinical record, audiogram, vision prescription
  truth       the ground truth from the model (priority merge, per-day totals)
  xmlwriter   batching/shuffling/duplicating records, header, body, CDA document
  outputs     the xml / folder / zip layouts
  validate    --validate: independent re-computation from the written artifact
  model, healthkit, intervals, dtd   value types, vocabulary, interval arithmetic, the DTD
"""

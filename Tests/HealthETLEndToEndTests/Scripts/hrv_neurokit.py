#!/usr/bin/env python3
"""neurokit2's hrv_time over beat lists (tooling for HRVNeurokitTests; never part of the product).

    hrv_neurokit.py LISTS.json

LISTS.json: [[beat time in µs, ...], ...]. Prints a JSON list, one object per list:
{"MeanNN", "SDNN", "RMSSD", "pNN50"} in ms (pNN50 in %), from nk.hrv_time given the R-R intervals
and their times (every interval of a list: the test's lists have no gap). Exit 3 when neurokit2
is missing.
"""
import json, sys, warnings

try:
    import numpy as np
    import neurokit2 as nk
except ImportError as e:
    print("neurokit2 is not installed (%s): set HEALTHETL_PYTHON to a Python that has it" % e, file=sys.stderr)
    sys.exit(3)

warnings.simplefilter("ignore")
out = []
for times in json.load(open(sys.argv[1])):
    t = np.array(times, dtype=np.float64) / 1000.0          # ms
    rri = np.diff(t)
    r = nk.hrv_time({"RRI": rri, "RRI_Time": t[1:] / 1000.0})
    out.append({k: float(r["HRV_" + k].iloc[0]) for k in ("MeanNN", "SDNN", "RMSSD", "pNN50")})
print(json.dumps(out))

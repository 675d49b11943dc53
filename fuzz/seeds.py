#!/usr/bin/env python3
"""Seed corpora for the fuzz targets (tooling only; `make fuzz` runs it): small slices of the
bundled sample and of the real exports in ../shared/realexports beside the checkout (or the
folder HEALTHETL_REAL_EXPORTS names; skipped when there is none),
small zips built from them, GPX routes, dates and numbers, the HealthQL queries of the
tests, and sessions typed into the REPL's line editor. Written into OUT/<target>/ at make
time; nothing from the real exports is committed.

    fuzz/seeds.py OUT [TARGET...]
"""
import io, json, os, pathlib, re, sys, zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
REAL = pathlib.Path(os.environ.get("HEALTHETL_REAL_EXPORTS") or ROOT.parent / "shared" / "realexports")

# The xml and gpx targets read [mode][4 chunk lengths] (gpx: the lengths only) before the
# document: whole, odd small chunks, and chunks around a device value's length.
XML_HEADERS = [b"\x00\xff\xff\xff\xff", b"\x06\x00\x02\x0c\x3f", b"\x03\x10\xff\x07\x80", b"\x01\xff\xff\xff\xff"]
GPX_HEADERS = [b"\xff\xff\xff\xff", b"\x00\x02\x0c\x3f"]


def exports():
    """The XML files (sample and real), each as its path."""
    found = [ROOT / "sample-data" / "export.xml"]
    if REAL.is_dir():
        found += sorted(p for p in REAL.rglob("*.xml"))
    return found


def head(path, size):
    """The first `size` bytes, cut after the last complete tag (a cut mid-record is fine too,
    but whole records lead the fuzzer into the handler first)."""
    data = path.read_bytes()[:size]
    end = data.rfind(b">")
    return data[: end + 1] if end > 0 else data


def routes():
    files = sorted(REAL.rglob("*.gpx")) if REAL.is_dir() else []
    return sorted(files, key=lambda p: p.stat().st_size)[:12]


def xml_seeds():
    seeds = []
    for i, path in enumerate(exports()):
        body = head(path, 16 << 10)
        seeds.append(XML_HEADERS[i % len(XML_HEADERS)] + body)
        seeds.append(XML_HEADERS[(i + 1) % len(XML_HEADERS)] + head(path, 4 << 10))
    seeds.append(XML_HEADERS[1] + b'<?xml version="1.0"?>\n<!DOCTYPE HealthData [\n<!ATTLIST X\n  y CDATA #REQUIRED\n<!ELEMENT Z EMPTY>\n]>\n'
                 b'<HealthData locale="en_US">\n <Record type="HKQuantityTypeIdentifierStepCount" sourceName="W\x0batch \xff"'
                 b' value="12" unit="count" startDate="2015-01-10 11:30:00 +0100" endDate="2015-01-10 11:31:00 +0100"/>\n</HealthData>\n')
    seeds.append(XML_HEADERS[3] + b'<HealthData><Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" source="x" value="40"'
                 b' startDate="20150603050217+0100" endDate="20150603050217+0100"><HeartRateVariabilityMetadataList>'
                 b'<InstantaneousBeatsPerMinute bpm="61" time="9:58:41.42 PM"/></HeartRateVariabilityMetadataList></Record></HealthData>')
    return seeds


def gpx_seeds():
    seeds = [GPX_HEADERS[i % 2] + head(p, 16 << 10) for i, p in enumerate(routes())]
    seeds.append(GPX_HEADERS[1] + b'<gpx><trk><trkseg><trkpt lat="37.3" lon="-122.0"><ele>12.5</ele><time>2019-06-11T15:00:02Z</time>'
                 b'<extensions><speed>1.2</speed><course>-1</course><hAcc>5</hAcc><vAcc>3</vAcc></extensions></trkpt></trkseg></trk></gpx>')
    return seeds


def small_zip(files, method=zipfile.ZIP_DEFLATED, zip64=False, comment=b"", streamed=False):
    """A zip of `files` (name → bytes); `streamed` writes to an unseekable file, which makes
    the writer use data descriptors (flag bit 3)."""
    class Unseekable(io.RawIOBase):
        def __init__(self): self.buffer = bytearray()
        def writable(self): return True
        def write(self, b): self.buffer += b; return len(b)
    target = Unseekable() if streamed else io.BytesIO()
    with zipfile.ZipFile(target, "w", method) as z:
        z.comment = comment
        for name, data in files.items():
            with z.open(name, "w", force_zip64=zip64) as f:
                f.write(data)
    return bytes(target.buffer) if streamed else target.getvalue()


def zip_seeds():
    sample = head(ROOT / "sample-data" / "export.xml", 6 << 10)
    route = gpx_seeds()[-1][len(GPX_HEADERS[1]):]
    export = {"apple_health_export/export.xml": sample, "apple_health_export/workout-routes/route.gpx": route}
    seeds = [small_zip(export), small_zip(export, zipfile.ZIP_STORED), small_zip(export, zip64=True),
             small_zip(export, streamed=True), small_zip(export, comment=b"a comment"),
             small_zip({"__MACOSX/._export.xml": b"junk", "apple_health_export/": b"", **export}),
             small_zip({"a/export.xml": sample[:2000], "b/Exportieren.xml": sample}),
             b"prepended bytes " + small_zip(export)]
    if REAL.is_dir():
        seeds += [p.read_bytes() for p in sorted(REAL.rglob("*.zip")) if p.stat().st_size <= 64 << 10]
    return seeds


def dates_numbers_seeds():
    return [s.encode() for s in [
        "2024-01-10 11:30:00 +0100", "2024-02-29 23:58:58 -0830", "20150603050217+0100", "2019-06-11T15:00:02Z",
        "2019-06-11T15:00:02.123456+02:00", "2024-01-10T10:30:00.5Z", "1988-10-29", "19881029", "9:58:41.42 PM",
        "17:07:00,29", "오후 9:58:41.42", "下午 9:58:41", "72", "-0.5", ".5", "1.23457e+06", "1e400", "0x10", "nan",
        "12.5|km", "3|mi", "98.6|degF", "5.5|mmol<180.15588000005408>/L", "2000|kJ", "150|lb", "-3|count", "1e13|count"]]


def ecg_seeds():
    """ECG CSV files as the Watch writes them (English, German, decimal commas, CRLF, a BOM), each
    behind the 4 chunk-length bytes the target reads first."""
    header = ("Name,Jane Appleseed\nDate of Birth,\"Jan 1, 1980\"\nRecorded Date,2020-03-15 09:41:23 -0700\n"
              "Classification,Sinus Rhythm\nSymptoms,\nSoftware Version,1.70\nDevice,\"Watch4,4\"\n"
              "Sample Rate,512 hertz\n,\nLead,Lead I\nUnit,\u00b5V\n,\n,\n")
    german = ("Name,Max Mustermann\nGeburtsdatum,1980-01-01\nAufnahmedatum,2021-01-12 14:16:12 +0100\n"
              "Klassifizierung,Sinusrhythmus\nSymptome,\nSoftwareversion,1.90\nGer\u00e4t,\"Watch5,4\"\n"
              "Abtastrate,512 Hertz\n,\nAbleitung,Ableitung I\nEinheit,\u00b5V\n,\n,\n")
    volts = "\n".join(f"{(i * 37 % 400) - 200}.{i % 1000:03d}" for i in range(300)) + "\n"
    comma = "\n".join(f"\"{(i * 13 % 90) - 45},{i % 100:02d}\"" for i in range(100)) + "\n"
    files = [header + volts, (german + comma).replace("\n", "\r\n"), "\ufeff" + header.replace("\u00b5V", "mV") + volts,
             header.replace("Average Heart Rate", "") + "Average Heart Rate,72 BPM\n" + volts[:400], header]
    lengths = [b"\xff\xff\xff\xff", b"\x07\x40\x03\x81"]
    return [lengths[i % 2] + text.encode() for i, text in enumerate(files)]


def healthql_seeds():
    """Every quoted query in the tests (HealthQL's unit and end-to-end tests, and the SQL other tests
    read stores with, which is HealthQL-shaped text too) and in the documentation (docs/HEALTHQL.md
    above all)."""
    seeds = set()
    literal = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
    for path in sorted((ROOT / "Tests").rglob("*.swift")):
        for m in literal.finditer(path.read_text()):
            if "\\(" in m.group(1):
                continue   # Swift interpolation, not a query
            text = re.sub(r'\\(.)', lambda e: {"n": "\n", "t": "\t"}.get(e.group(1), e.group(1)), m.group(1))
            if re.match(r"\s*select\b", text, re.I):
                seeds.add(text)
    documents = [ROOT / "README.md", ROOT / "CHANGELOG.md"] + sorted((ROOT / "docs").glob("*.md"))
    for line in (line for path in documents if path.is_file() for line in path.read_text().splitlines()):
        for m in re.finditer(r"(SELECT [^`]*)", line):
            seeds.add(m.group(1).strip())
    # Issue 46: expressions and lists at and past the limits (100 operators, 10,000 values), and
    # chains of each operator, so the fuzzer starts from the long shapes that crashed.
    for op in ("+", "-", "*", "/", " OR ", " AND "):
        term = "value" if op.strip() not in ("OR", "AND") else "value > 1"
        for n in (60, 99, 101):
            seeds.add("SELECT count(*) FROM steps WHERE " + op.join([term] * n) if op.strip() in ("OR", "AND")
                      else "SELECT " + op.join([term] * n) + " AS x FROM steps")
    for n in (10_000, 10_001):
        seeds.add("SELECT count(*) FROM steps WHERE value IN (" + ",".join(str(i) for i in range(n)) + ")")
    return [s.encode("utf-8", errors="ignore") for s in sorted(seeds)]


def mcp_seeds():
    """JSON-RPC sessions for the MCP server: the handshake, each tool (the HealthQL seeds as
    queries), resources, and the bad lines the MCP tests send."""
    init = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}'
    calls = ['{"jsonrpc":"2.0","method":"notifications/initialized"}', '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
             '{"jsonrpc":"2.0","id":3,"method":"resources/list"}',
             '{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"healthql://schema"}}',
             '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_metrics","arguments":{}}}',
             '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"describe_person","arguments":{"person":"ann"}}}',
             '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"daily_summary","arguments":{"from":"2024-03-01","to":"2024-03-07"}}}',
             '{not json', '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":[1]}', '[{"jsonrpc":"2.0","id":9,"method":"ping"}]',
             '{"jsonrpc":"2.0","id":"last","method":"ping"}']
    seeds = ["\n".join([init] + calls) + "\n"]
    long_ones = [q for q in healthql_seeds() if len(q) > 2000]
    for i, query in enumerate(healthql_seeds()[:60] + long_ones):
        request = {"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call",
                   "params": {"name": "query", "arguments": {"query": query.decode("utf-8", errors="ignore")}}}
        seeds.append(init + "\n" + json.dumps(request) + "\n")
    return [s.encode() for s in seeds]


def clinical_seeds():
    """`clinical-records/*.json` files: resources as providers send them (pretty printed, a byte
    order mark, CRLF, escapes, numbers kept as written), and the shapes issue 56 found."""
    patient = '"subject": {"reference": "Patient/e63wRTbPfr1p8UW81d8Seiw3", "display": "Ann M\u00fcller"}'
    seeds = [
        '{\n  "resourceType": "Observation", "id": "eGLnqS5Wq", "status": "final",\n'
        '  "code": {"coding": [{"system": "http://loinc.org", "code": "2345-7"}], "text": "Glucose \\"fasting\\""},\n'
        f'  {patient},\n  "valueQuantity": {{"value": 5.40, "unit": "mmol/L"}}, "issued": "2024-03-18T08:05:00+01:00"\n}}\n',
        '\ufeff{\r\n "resourceType": "AllergyIntolerance", "id": "a-1", "code": {"text": "Penicillin \\u00e9 \\ud834\\udd1e"}\r\n}\r\n',
        '{"resourceType": "Basic", "x": [' + '{},' * 200 + '{}], "n": [0, -0.0, 1e5, -2E-3, true, false, null]}',
        '{"resourceType": {"a": 1}, "resourceType": "Observation"}',
        '{"resourceType": "Observation", "resourceTyp\\u0065": "Patient"}',
        '{"resourceType": "Basic", "x": ' + '[' * 99 + ']' * 99 + '}',
        '0' * 64,
    ]
    out = [s.encode("utf-8") for s in seeds]
    out.append('{"resourceType": "Observation"}'.encode("utf-16"))
    out.append(b'{"resourceType": "Observation", "a": "x\x00y"}')
    return out


def line_editor_seeds():
    """Sessions typed into the REPL's line editor, behind the byte that chooses the terminal's
    width and prompt and the 4 chunk lengths (one key a read, a few, a whole paste): the keys of
    the pseudo-terminal test in every form, the escape whose parameter overflowed (issue 56), a
    paste longer than any row, UTF-8 good and bad, completion, history."""
    home, end = ["\x1b[1~", "\x1b[H", "\x1bOH", "\x1b[7~", "\x01"], ["\x1b[4~", "\x1b[F", "\x1bOF", "\x1b[8~", "\x05"]
    sessions = ["".join("ELECT count(*) FROM steps" + h + "S" + e + ";\r" for h, e in zip(home, end)),
                "SELECT count(*) FROM steps" + "\x1b[99999999999999999999~" + ";\r",
                "\x1b[" + "9" * 200 + "~\x15SELECT 1;\r",
                "xx SELECT count(*) FROM steps;\x01" + "\x1b[3~" * 3 + "\r",
                "SELECT count(*) FROM steps; tail" + "\x02" * 5 + "\x0b\r",
                "nonsense words\x15SELECT count(*) FROM steps; junk\x17\r",
                "SELECT count(*) FROM stepsX\x02\x04;\r\x04",
                "SELEC\tcount(*) FROM heart_rate_v\t;\r\x1b[A\r",
                "SELECT * FROM s\t\t\x0c\x1b[A\x1b[A\x1b[B\x1b[B\x03",
                "SELECT 'caf\u00e9 \u20ac \U0001F600' FROM steps;\r",
                "SELECT count(*)\rFROM steps\r;\r",
                "SELECT count(*) FROM steps WHERE value NOT IN (" + ",".join(str(100_000 + i) for i in range(400)) + ");"]
    raw = [b"SELECT \xc3\x41 \xe2\x82 \xed\xa0\x80 \xc2\x85 \xff\xfe\x80;\r", b"\x1b\x1b[A\x1bx\x1bO\x0d\x1b[1;5H\x1b[3;2~"]
    headers = [b"\x9e\xff\xff\xff\xff", b"\x9f\x00\x00\x00\x00", b"\x26\x02\x0c\x3f\xff", b"\x01\x07\x00\x10\x03"]
    payloads = [s.encode() for s in sessions] + raw
    return [headers[i % len(headers)] + p for i, p in enumerate(payloads)] + [headers[1] + p for p in payloads[:4]]


def health_connect_seeds():
    """Health Connect databases of the real schema (tools/health_connect/schema.sql) in 512-byte
    pages, so that a whole database with a few records fits a fuzz input: a step, a heart-rate
    series, a sleep session with stages, a priority list; and the same in a zip, as exported."""
    import sqlite3, tempfile
    schema = (ROOT / "tools" / "health_connect" / "schema.sql").read_text(encoding="utf-8")
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "health_connect_export.db"
        db = sqlite3.connect(path)
        db.execute("PRAGMA page_size = 512")
        db.executescript(schema)
        db.execute("INSERT INTO application_info_table (row_id, package_name, app_name) VALUES (1, 'com.example.fit', 'Fit')")
        db.execute("INSERT INTO device_info_table (row_id, manufacturer, model, device_type) VALUES (1, 'Google', 'Pixel 8', 2)")
        db.execute("INSERT INTO health_data_category_priority_table (health_data_category, app_id_priority_order) VALUES (1, '1')")
        common = "uuid, last_modified_time, app_info_id, device_info_id, recording_method"
        interval = "start_time, start_zone_offset, end_time, end_zone_offset, local_date"
        db.execute(f"INSERT INTO steps_record_table ({common}, {interval}, count) VALUES "
                   "(x'00112233445566778899aabbccddeeff', 1740873600000, 1, 1, 2, 1740870000000, 3600, 1740873600000, 3600, 20148, 1200)")
        db.execute(f"INSERT INTO heart_rate_record_table ({common}, {interval}) VALUES "
                   "(x'00112233445566778899aabbccddee01', 1740873600000, 1, 1, 2, 1740870000000, 3600, 1740870600000, 3600, 20148)")
        db.executemany("INSERT INTO heart_rate_record_series_table (parent_key, beats_per_minute, epoch_millis) VALUES (1, ?, ?)",
                       [(60 + i, 1740870000000 + i * 60000) for i in range(5)])
        db.execute(f"INSERT INTO sleep_session_record_table ({common}, {interval}) VALUES "
                   "(x'00112233445566778899aabbccddee02', 1740900000000, 1, 1, 2, 1740870000000, 3600, 1740895200000, 3600, 20148)")
        db.executemany("INSERT INTO sleep_stages_table (parent_key, stage_start_time, stage_end_time, stage_type) VALUES (1, ?, ?, ?)",
                       [(1740870000000, 1740880000000, 4), (1740880000000, 1740890000000, 5), (1740890000000, 1740895200000, 1)])
        db.commit()
        db.execute("VACUUM")
        db.close()
        data = path.read_bytes()
    out.append(data)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("health_connect_export.db", data)
    out.append(buffer.getvalue())
    return out


TARGETS = {"clinical": clinical_seeds, "xml": xml_seeds, "zip": zip_seeds, "dates-numbers": dates_numbers_seeds, "gpx": gpx_seeds,
           "healthql": healthql_seeds, "mcp": mcp_seeds, "ecg": ecg_seeds,
           "line-editor": line_editor_seeds, "health-connect": health_connect_seeds}


def main():
    out = pathlib.Path(sys.argv[1])
    for name in sys.argv[2:] or TARGETS:
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        seeds = TARGETS[name]()
        for i, seed in enumerate(seeds):
            (folder / f"seed-{i:03d}").write_bytes(seed)
        print(f"seeds: {len(seeds)} for {name} in {folder}")


if __name__ == "__main__":
    main()

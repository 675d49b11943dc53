"""Writing the artifact in its layout: a plain XML file, an unzipped folder or an Export.zip."""

from __future__ import annotations

import datetime as dt
import io
import os
import zipfile


APPLEDOUBLE = (b"\x00\x05\x16\x07\x00\x02\x00\x00" + b"Mac OS X        " + b"\x00\x02"
               + b"\x00\x00\x00\x09\x00\x00\x00\x32\x00\x00\x0e\xb0"
               + b"\x00\x00\x00\x02\x00\x00\x0e\xe2\x00\x00\x01\x1e"
               + b"\x00" * 2 + b"ATTR" + b"\x00" * 28 + b"com.apple.quarantine\x00" + b"0083;65f1a2b3;Mail;\x00")


# ----------------------------------------------------------------------------------------------
# Output
# ----------------------------------------------------------------------------------------------
def write_outputs(gen, args, sections):
    out = args.out
    tree = "apple_health_export/"
    zdt = dt.datetime.fromtimestamp(gen.export_t, gen.zone).timetuple()[:6]
    if args.layout == "xml":
        d = os.path.dirname(os.path.abspath(out))
        os.makedirs(d, exist_ok=True)
        with open(out, "w", encoding="utf-8", newline="\n", buffering=4 << 20) as f:
            gen.write_xml(f, sections)
        return out, os.path.getsize(out)
    other = []  # (relpath, bytes)
    other.append(("export_cda.xml", gen.cda_text().encode("utf-8")))
    for name, (wk, title) in gen.gpx_files.items():
        other.append((f"workout-routes/{name}", gen.gpx_text(gen.make_route(wk), title).encode("utf-8")))
    for name, text in gen.clinical_files.items():
        other.append((f"clinical-records/{name}", text.encode("utf-8")))
    if args.layout == "folder":
        root = os.path.join(out, "apple_health_export")
        os.makedirs(os.path.join(root, "workout-routes"), exist_ok=True)
        os.makedirs(os.path.join(root, "clinical-records"), exist_ok=True)
        xp = os.path.join(root, args.xml_name)
        with open(xp, "w", encoding="utf-8", newline="\n", buffering=4 << 20) as f:
            gen.write_xml(f, sections)
        for rel, data in other:
            with open(os.path.join(root, rel), "wb") as f:
                f.write(data)
        return xp, os.path.getsize(xp)
    # zip
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as zf:
        def zi(name, dirent=False):
            z = zipfile.ZipInfo(name, date_time=zdt)
            z.compress_type = zipfile.ZIP_STORED if dirent else zipfile.ZIP_DEFLATED
            z.external_attr = (0o40755 << 16) | 0x10 if dirent else 0o644 << 16
            return z
        zf.writestr(zi(tree, True), b"")
        with zf.open(zi(tree + args.xml_name), "w", force_zip64=True) as raw:
            f = io.TextIOWrapper(io.BufferedWriter(raw, 4 << 20), encoding="utf-8", newline="\n")
            gen.write_xml(f, sections)
            f.flush()
            f.detach().flush()
        xml_size = zf.getinfo(tree + args.xml_name).file_size
        zf.writestr(zi(tree + "export_cda.xml"), other[0][1])
        zf.writestr(zi(tree + "workout-routes/", True), b"")
        for rel, data in other[1:]:
            if rel.startswith("clinical-records/") and not any(n.filename == tree + "clinical-records/" for n in zf.infolist()):
                zf.writestr(zi(tree + "clinical-records/", True), b"")
            zf.writestr(zi(tree + rel), data)
        zf.writestr(zi("__MACOSX/" + tree + "._" + args.xml_name), APPLEDOUBLE)
    return out, xml_size

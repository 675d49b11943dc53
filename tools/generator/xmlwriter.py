"""Writing the export XML: batching, shuffling and duplicating records, the header, the body, and
the CDA document."""

from __future__ import annotations

import re

from .dtd import broken_dtd, DTD_V14, XML_DECL
from .healthkit import AEB, BEB, C, DWR, esc, EXER, FLIGHTS, GLU, HR, HRV, MASS, SLEEP, STEPS


class XMLWriterMixin:
    def assemble(self):
        """Batches per type, shuffled; duplicates; returns list of sections (lists of strings)."""
        rng = self.rng
        qb, cb, hb = [], [], []
        for typ in sorted(self.recs):
            lst = self.recs[typ]
            lst.sort(key=lambda x: x[0])
            xs = [x for _, x in lst]
            nb = max(1, min(len(xs) // 25, rng.randint(2, 5) + len(xs) // 3000))
            cuts = sorted(rng.sample(range(1, len(xs)), nb - 1)) if nb > 1 else []
            edges = [0] + cuts + [len(xs)]
            batches = [(typ, xs[edges[i]:edges[i + 1]]) for i in range(nb)]
            (hb if typ == HRV else cb if typ.startswith(C) else qb).extend(batches)
        rng.shuffle(qb)
        rng.shuffle(cb)
        rng.shuffle(hb)
        self.n_distinct = sum(len(x) for _, x in qb + cb + hb)
        # exact duplicates: 2-4 copies in total, adjacent or far apart
        dup_types = {STEPS, DWR, AEB, HR, SLEEP, MASS, FLIGHTS, HRV, GLU, BEB, EXER}
        groups = [qb, cb, hb]
        eligible = [(gi, bi) for gi, grp in enumerate(groups) for bi, (typ, xs) in enumerate(grp) if typ in dup_types and xs]
        weights = [len(groups[gi][bi][1]) for gi, bi in eligible]
        n_dup_recs = max(12, int(self.n_distinct * 0.004))
        chosen = set()
        adj = {}      # (gi, bi, idx) -> extra adjacent copies
        far = {}      # (gi, bi) -> list of (pos, xml)
        n_extra = 0
        hrv_forced = bool(hb)
        tries = 0
        while len(chosen) < n_dup_recs and tries < n_dup_recs * 20 and eligible:
            tries += 1
            if hrv_forced:
                gi, bi = 2, 0
                hrv_forced = False
            else:
                gi, bi = rng.choices(eligible, weights)[0]
            xs = groups[gi][bi][1]
            idx = rng.randrange(len(xs))
            if (gi, bi, idx) in chosen:
                continue
            chosen.add((gi, bi, idx))
            copies = rng.choices((1, 2, 3), (0.6, 0.3, 0.1))[0]
            for _ in range(copies):
                n_extra += 1
                if rng.random() < 0.55:
                    adj[(gi, bi, idx)] = adj.get((gi, bi, idx), 0) + 1
                else:
                    typ = groups[gi][bi][0]
                    same = [j for j, (t2, _) in enumerate(groups[gi]) if t2 == typ and j != bi]
                    tb = rng.choice(same) if same else bi
                    far.setdefault((gi, tb), []).append((rng.randrange(len(groups[gi][tb][1]) + 1), xs[idx]))
        self.n_duplicates = n_extra
        out = []
        for gi, grp in enumerate(groups):
            sect = []
            for bi, (typ, xs) in enumerate(grp):
                ins = sorted(far.get((gi, bi), []), key=lambda p: p[0])
                j = 0
                res = []
                for i, x in enumerate(xs):
                    while j < len(ins) and ins[j][0] == i:
                        res.append(ins[j][1])
                        j += 1
                    res.append(x)
                    n = adj.get((gi, bi, i))
                    if n:
                        res.extend([x] * n)
                while j < len(ins):
                    res.append(ins[j][1])
                    j += 1
                sect.append("".join(res))
            out.append(sect)
        qs, cs, hs = out
        self.correlations.sort()
        self.workout_xml.sort(key=lambda x: x[0])
        return [qs, cs, [x for _, x in self.correlations], [x for _, x in self.workout_xml], self.summaries,
                self.misc, hs]

    def header(self):
        me = ('<Me HKCharacteristicTypeIdentifierDateOfBirth="1988-06-14" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" '
              'HKCharacteristicTypeIdentifierBloodType="HKBloodTypeAPositive" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeIII" '
              'HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>')
        dtd = broken_dtd() if self.args.broken_dtd else DTD_V14
        return (XML_DECL + dtd + "\n" + '<HealthData locale="en_US">\n'
                f' <ExportDate value="{self.ts(self.export_t)}"/>\n {me}\n')

    def write_xml(self, f, sections):
        f.write(self.header())
        for sect in sections:
            for chunk in sect:
                f.write(chunk)
        f.write("</HealthData>\n")

    def cda_text(self):
        ts = self.ts
        rows = []
        for typ, unit in ((MASS, "lb"), (HR, "count/min")):
            for _, x in self.recs.get(typ, [])[:3]:
                m = re.search(r'startDate="([^"]+)" endDate="([^"]+)" value="([^"]+)"', x)
                if not m:
                    continue
                d = m.group(1).replace("-", "").replace(":", "").replace(" ", "")
                rows.append(f'   <entry typeCode="DRIV">\n    <organizer classCode="CLUSTER" moodCode="EVN">\n'
                            f'     <component>\n      <observation classCode="OBS" moodCode="EVN">\n'
                            f'       <text><type>{typ}</type><unit>{esc(unit)}</unit></text>\n'
                            f'       <effectiveTime><low value="{d}"/><high value="{d}"/></effectiveTime>\n'
                            f'       <value xsi:type="PQ" value="{m.group(3)}" unit="{esc(unit)}"/>\n'
                            f'      </observation>\n     </component>\n    </organizer>\n   </entry>\n')
        eff = ts(self.export_t).replace("-", "").replace(":", "").replace(" ", "")
        return ('<?xml version="1.0"?>\n<?xml-stylesheet type="text/xsl" href="CDA.xsl"?>\n'
                '<ClinicalDocument xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="urn:hl7-org:v3" '
                'xmlns:cda="urn:hl7-org:v3" xmlns:sdtc="urn:l7-org:sdtc" xmlns:fhir="http://hl7.org/fhir/v3">\n'
                ' <realmCode code="US"/>\n <typeId root="2.16.840.1.113883.1.3" extension="POCD_HD000040"/>\n'
                ' <id extension="Health Export CDA" root="1.1.1.1.1.1.1.1.1"/>\n <title>Health Data Export</title>\n'
                f' <effectiveTime value="{eff}"/>\n <recordTarget>\n  <patientRole>\n   <patient>\n    <name use="CL">Alex</name>\n'
                '    <birthTime value="19880614"/>\n   </patient>\n  </patientRole>\n </recordTarget>\n'
                ' <component>\n  <section>\n   <title>Vital Signs</title>\n' + "".join(rows) +
                '  </section>\n </component>\n</ClinicalDocument>\n')

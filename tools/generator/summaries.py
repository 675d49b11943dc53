"""Activity summaries and the other top-level elements (clinical records, audiogram, vision
prescription)."""

from __future__ import annotations

import datetime as dt
import json

from .healthkit import AEB, EXER, g, LEVEL_WATCH


class SummariesMixin:
    def gen_summaries_misc(self):
        ts = self.ts
        watch_active = [0.0] * self.N
        watch_exer = [0.0] * self.N
        for typ, acc in ((AEB, watch_active), (EXER, watch_exer)):
            for s, e, lvl, v in self.cum.get(typ, []):
                if lvl == LEVEL_WATCH:
                    for d, part in self.split_days(s, e, v):
                        acc[d] += part
        for k in range(self.N):
            self.summaries.append(
                f' <ActivitySummary dateComponents="{self.date(k).isoformat()}" activeEnergyBurned="{g(watch_active[k])}" '
                f'activeEnergyBurnedGoal="520" activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" '
                f'appleExerciseTime="{int(watch_exer[k])}" appleExerciseTimeGoal="30" appleStandHours="{self.stand_hours[k]}" '
                f'appleStandHoursGoal="12"/>\n')
        # ClinicalRecord (+ FHIR JSON for zip/folder layouts)
        rid = f"{self.rnd(48):012x}"
        t = self.wall(min(2, self.N - 1), 10 * 3600)
        fname = f"Observation-{rid}.json"
        self.misc.append(
            f' <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="{rid}" sourceName="Stadtklinik Berlin" '
            f'sourceURL="https://fhir.stadtklinik-berlin.example/api/FHIR/R4/Observation/{rid}" fhirVersion="4.0.1" '
            f'receivedDate="{ts(t)}" resourceFilePath="/clinical-records/{fname}"/>\n')
        self.clinical_files[fname] = json.dumps({
            "resourceType": "Observation", "id": rid, "status": "final",
            "category": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/observation-category", "code": "laboratory"}]}],
            "code": {"coding": [{"system": "http://loinc.org", "code": "4548-4", "display": "Hemoglobin A1c/Hemoglobin.total in Blood"}],
                     "text": "HbA1c"},
            "effectiveDateTime": dt.datetime.fromtimestamp(t - 86400 * 3, self.zone).isoformat(),
            "valueQuantity": {"value": 5.3, "unit": "%", "system": "http://unitsofmeasure.org", "code": "%"}}, indent=2)
        # Audiogram
        t = self.wall(min(5, self.N - 1), 11 * 3600 + 12 * 60)
        pts = "".join(
            f'  <SensitivityPoint frequencyValue="{f}" frequencyUnit="Hz" leftEarValue="{l}" leftEarUnit="dBHL" leftEarMasked="0" '
            f'rightEarValue="{r}" rightEarUnit="dBHL" rightEarMasked="0"/>\n'
            for f, l, r in ((125, 10, 15), (250, 10, 10), (500, 5, 10), (1000, 10, 5), (2000, 15, 10), (4000, 20, 25), (8000, 30, 35)))
        self.misc.append(f' <Audiogram type="HKDataTypeIdentifierAudiogram" {self.health.attrs_nodevice(0).replace("Health", "Mimi Hearing Test", 1)} '
                         f'creationDate="{ts(t + 420)}" startDate="{ts(t)}" endDate="{ts(t + 400)}">\n{pts} </Audiogram>\n')
        # VisionPrescription
        t = self.wall(-60, 10 * 3600)
        eye = ('sphere="{s}" sphereUnit="D" cylinder="{c}" cylinderUnit="D" axis="{a}" axisUnit="deg" '
               'add="0.75" addUnit="D" vertex="12" vertexUnit="mm" farPD="31.5" farPDUnit="mm"')
        self.misc.append(f' <VisionPrescription type="HKVisionPrescriptionTypeGlasses" dateIssued="{ts(t)}" expirationDate="{ts(t + 2 * 365 * 86400)}">\n'
                         f'  <RightEye {eye.format(s="-1.25", c="-0.5", a="95")}/>\n'
                         f'  <LeftEye {eye.format(s="-1.5", c="-0.25", a="80")}/>\n'
                         f'  <MetadataEntry key="HKMetadataKeySyncIdentifier" value="{self.uuid()}"/>\n </VisionPrescription>\n')

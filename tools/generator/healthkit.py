"""HealthKit vocabulary: type identifiers, units and their factors, the truth's day fields, source
priority levels, and HealthKit's value/attribute formatting."""

from __future__ import annotations


Q = "HKQuantityTypeIdentifier"
C = "HKCategoryTypeIdentifier"
STEPS, DWR, DCYC, DSWIM = Q + "StepCount", Q + "DistanceWalkingRunning", Q + "DistanceCycling", Q + "DistanceSwimming"
STROKES, AEB, BEB, FLIGHTS = Q + "SwimmingStrokeCount", Q + "ActiveEnergyBurned", Q + "BasalEnergyBurned", Q + "FlightsClimbed"
EXER, STAND, HR, HRV = Q + "AppleExerciseTime", Q + "AppleStandTime", Q + "HeartRate", Q + "HeartRateVariabilitySDNN"
RHR, WHR, VO2, SPO2, RESP = Q + "RestingHeartRate", Q + "WalkingHeartRateAverage", Q + "VO2Max", Q + "OxygenSaturation", Q + "RespiratoryRate"
MASS, BMI, HEIGHT, TEMP, GLU = Q + "BodyMass", Q + "BodyMassIndex", Q + "Height", Q + "BodyTemperature", Q + "BloodGlucose"
SYS, DIA = Q + "BloodPressureSystolic", Q + "BloodPressureDiastolic"
D_KCAL, D_PROT, D_CARB, D_FAT = Q + "DietaryEnergyConsumed", Q + "DietaryProtein", Q + "DietaryCarbohydrates", Q + "DietaryFatTotal"
SLEEP, STANDH, HEADACHE = C + "SleepAnalysis", C + "AppleStandHour", C + "Headache"
SV = "HKCategoryValueSleepAnalysis"
ASLEEP_VALUES = ("AsleepCore", "AsleepDeep", "AsleepREM", "AsleepUnspecified")
ASLEEP_TRACK = ASLEEP_VALUES + ("Awake",)

GLUCOSE_MMOL = "mmol&lt;180.1558800000541&gt;/L"  # escaped form of mmol<180.1558800000541>/L
VO2_UNIT = "mL/min\u00b7kg"

# unit -> factor to the truth's standard unit (count, m, kcal, min)
TO_STD = {"count": 1.0, "m": 1.0, "km": 1000.0, "mi": 1609.344, "yd": 0.9144, "ft": 0.3048,
          "kcal": 1.0, "Cal": 1.0, "kJ": 1.0 / 4.184, "min": 1.0}

# cumulative type -> truth field (DistanceWalkingRunning is split into walking/running)
CUM_FIELDS = {STEPS: "steps", DCYC: "cycling_distance_m", AEB: "active_energy_kcal",
              BEB: "resting_energy_kcal", FLIGHTS: "stairs_climbed", EXER: "exercise_minutes",
              STAND: "stand_minutes"}
DAY_FIELDS = ["steps", "walking_distance_m", "running_distance_m", "cycling_distance_m",
              "active_energy_kcal", "resting_energy_kcal", "stairs_climbed", "exercise_minutes",
              "stand_minutes", "sleep_total_minutes", "sleep_deep_minutes", "sleep_rem_minutes"]

LEVEL_MANUAL, LEVEL_WATCH, LEVEL_PHONE, LEVEL_OTHER = 0, 1, 2, 3


def esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def g(v: float) -> str:
    """HealthKit prints values with %g (6 significant digits, exponent form when needed)."""
    return "%g" % v

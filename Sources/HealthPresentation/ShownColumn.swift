import HealthCore

// HealthPresentation: how the store's values read to a person in the outputs (CSV, the
// workbook, the report): each column's name, title and conversion in the person's units.
// Nothing here knows the store; the store keeps canonical units and its own column names.

/// How one output column is shown: its CSV name and spreadsheet header (both name the unit),
/// and the conversion of its stored value.
package struct ShownColumn: Sendable, Equatable {
    /// The CSV header: the store's name, its unit suffix changed where the unit is
    /// (`walking_distance_m` → `walking_distance_mi`).
    package var csvName: String
    /// The spreadsheet header: words and the unit (`Walking distance (km)`).
    package var title: String
    package var scale = 1.0
    package var offset = 0.0
    /// Decimals shown, where the unit changes them (distances in km or mi: 2).
    package var places: Int?

    package func convert(_ value: Double) -> Double { value * scale + offset }
}

extension UnitSystem {
    /// How `column` is shown: in CSV (`spreadsheet` false, where metric keeps the store's units
    /// and names, so today's files stay as they are) or in the workbook and the report (where
    /// distances read in km).
    package func show(_ column: String, spreadsheet: Bool) -> ShownColumn {
        let (stem, unit) = Self.split(column)
        var shown = ShownColumn(csvName: column, title: Self.words(stem) + (Self.unitText[unit ?? ""].map { " (\($0))" } ?? ""))
        switch (unit, self) {
        // A climb reads in m or ft, never km or mi (docs/vitals-hrv-workouts.md).
        case ("m", .metric) where stem.hasPrefix("elevation"):
            break
        case ("m", .imperial) where stem.hasPrefix("elevation"):
            shown.csvName = stem + "_ft"; shown.title = Self.words(stem) + " (ft)"; shown.scale = 1 / 0.3048; shown.places = 0
        case (nil, .imperial) where column == "pace_min_per_km":
            shown.csvName = "pace_min_per_mi"; shown.title = "Pace (min/mi)"; shown.scale = 1.609344
        case (nil, .metric) where column == "pace_min_per_km":
            shown.title = "Pace (min/km)"
        case ("m", .metric) where spreadsheet:
            shown.title = Self.words(stem) + " (km)"; shown.scale = 0.001; shown.places = 2
        case ("m", .imperial):
            shown.csvName = stem + "_mi"; shown.title = Self.words(stem) + " (mi)"; shown.scale = 1 / 1609.344; shown.places = 2
        case ("kg", .imperial):
            shown.csvName = stem + "_lb"; shown.title = Self.words(stem) + " (lb)"; shown.scale = 2.204_622_621_848_776; shown.places = 1
        case ("degc", .imperial):
            shown.csvName = stem + "_degf"; shown.title = Self.words(stem) + " (°F)"; shown.scale = 1.8; shown.offset = 32; shown.places = 1
        default:
            break
        }
        return shown
    }

    /// The unit suffixes of the store's column names.
    static let unitText = ["m": "m", "kcal": "kcal", "minutes": "min", "min": "min", "kg": "kg", "degc": "°C",
                           "hours": "h", "heart_rate": "bpm", "goal_kcal": "kcal", "goal_min": "min", "hz": "Hz",
                           "ms": "ms", "mmhg": "mmHg", "percent": "%", "mg_dl": "mg/dL", "seconds": "s", "bpm": "bpm"]

    /// (`walking_distance`, `m`) for `walking_distance_m`; heart rates have the unit bpm.
    static func split(_ column: String) -> (stem: String, unit: String?) {
        if column.hasSuffix("heart_rate") { return (column, "heart_rate") }
        for suffix in ["_goal_kcal", "_goal_min", "_minutes", "_hours", "_kcal", "_min", "_degc", "_kg", "_hz", "_mg_dl",
                       "_mmhg", "_percent", "_seconds", "_ms", "_m"] where column.hasSuffix(suffix) {
            let unit = String(suffix.dropFirst())
            // A goal keeps its word: `active_energy_goal_kcal` reads "Active energy goal (kcal)".
            if unit.hasPrefix("goal_") { return (String(column.dropLast(suffix.count - 5)), String(unit.dropFirst(5))) }
            return (String(column.dropLast(suffix.count)), unit)
        }
        return (column, nil)
    }

    /// `Walking distance` for `walking_distance`; abbreviations as they are written (`HRV SDNN`,
    /// `BMI`, `SpO₂`, `UTC offset`), not as a column name spells them (`Hrv sdnn`, issue 45).
    static func words(_ stem: String) -> String {
        let words = stem.split(separator: "_").map { abbreviations[String($0)] ?? String($0) }
        guard let first = words.first else { return stem }
        return ([first.prefix(1).uppercased() + first.dropFirst()] + words.dropFirst()).joined(separator: " ")
    }

    static let abbreviations = ["hrv": "HRV", "sdnn": "SDNN", "rmssd": "RMSSD", "pnn50": "pNN50", "nn": "NN", "bmi": "BMI",
                                "spo2": "SpO₂", "vo2": "VO₂", "utc": "UTC", "ecg": "ECG", "id": "ID", "ftp": "FTP",
                                "uv": "UV", "mmhg": "mmHg"]
}

import HealthStore

/// The workbook's sheets from the vitals tables (docs/vitals-hrv-workouts.md): Vitals (one row a
/// day), Blood pressure (one row a reading) and the readable Workouts sheet (display names,
/// local times, heart rate and the minutes in each zone, route figures).
extension HealthWorkbook {
    static let vitalsSheet: (title: String, table: OutputTable) = ("Vitals", .dailyVitals)
    static let bloodPressureSheet: (title: String, table: OutputTable) = ("Blood pressure", .bloodPressure)

    /// `workout_details` with what a reader asks of a workout first (the store's
    /// `workoutsReadable`); the instants shown in local time by `WorkbookSheet` (date cells).
    static let workoutsSheet: (title: String, table: OutputTable) = ("Workouts", .workoutsReadable)
}

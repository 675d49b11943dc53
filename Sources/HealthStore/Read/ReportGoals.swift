/// Daily goals of the report (pipeline key `goals`). Where the export has the Watch's Activity
/// rings, that day's own ring goals are used for active energy, exercise and stand hours.
public struct ReportGoals: Codable, Sendable, Equatable {
    public var steps: Double?
    public var activeEnergyKcal: Double?
    public var exerciseMinutes: Double?
    public var standHours: Double?
    public var sleepHours: Double?

    public init(steps: Double? = nil, activeEnergyKcal: Double? = nil, exerciseMinutes: Double? = nil,
                standHours: Double? = nil, sleepHours: Double? = nil) {
        self.steps = steps; self.activeEnergyKcal = activeEnergyKcal; self.exerciseMinutes = exerciseMinutes
        self.standHours = standHours; self.sleepHours = sleepHours
    }

    /// 10,000 steps, 500 kcal (the Watch's default move goal is in that range), 30 minutes of
    /// exercise, 12 stand hours, 7 hours of sleep.
    public static let defaults = ReportGoals(steps: 10_000, activeEnergyKcal: 500, exerciseMinutes: 30, standHours: 12,
                                             sleepHours: 7)

    /// These goals, with the defaults where unset.
    public var resolved: ReportGoals {
        let d = Self.defaults
        return ReportGoals(steps: steps ?? d.steps, activeEnergyKcal: activeEnergyKcal ?? d.activeEnergyKcal,
                           exerciseMinutes: exerciseMinutes ?? d.exerciseMinutes, standHours: standHours ?? d.standHours,
                           sleepHours: sleepHours ?? d.sleepHours)
    }
}

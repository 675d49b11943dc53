/// Periods counted back from `today()` (the data's last complete day unless `--now`):
/// `date IN LAST 4 WEEKS`, `date IN THIS MONTH`, `date IN LAST MONTH`.
///
/// - `LAST n DAYS|WEEKS|MONTHS|YEARS`: the n units that end with today, today included
///   (`LAST 7 DAYS` is today and the six days before).
/// - `THIS WEEK|MONTH|YEAR`: from the first day of the current calendar period through today.
/// - `LAST WEEK|MONTH|YEAR` (no number): the whole previous calendar period.
///
/// They are read as `date >= from AND date <= through` over the same time functions a query
/// could write itself, so the planner, printer and DSL need nothing new.
struct RelativePeriod {
    var from: Expr
    var through: Expr
}

extension Parser {
    private static let units: [String: DurationUnit] = [
        "day": .days, "days": .days, "week": .weeks, "weeks": .weeks,
        "month": .months, "months": .months, "year": .years, "years": .years,
    ]
    /// After IN: a period, or nil when the next word is no LAST / THIS (an IN list follows).
    mutating func relativePeriod() throws(HealthQLError) -> RelativePeriod? {
        guard case .identifier(let word) = current.kind, ["last", "this"].contains(word.lowercased()) else { return nil }
        let at = Anchor(current.position)
        let isLast = word.lowercased() == "last"
        advance()
        var count: Double?
        if isLast, case .number(let n) = current.kind {
            guard n == n.rounded(), n >= 1, n <= 10_000 else { throw error("Expected a whole number of periods (1 to 10000) after LAST") }
            count = n
            advance()
        }
        guard case .identifier(let unitWord) = current.kind, let unit = Self.units[unitWord.lowercased()] else {
            let choices = count == nil ? "WEEK, MONTH or YEAR" : "DAYS, WEEKS, MONTHS or YEARS"
            throw error("Expected \(choices) after \(isLast ? "LAST" : "THIS")\(count.map { " \(Expr.number($0))" } ?? "") but found \(current.quoted)")
        }
        advance()
        guard let period = RelativePeriod(count: count, unit: unit, isLast: isLast, at: at) else {
            throw HealthQLError("Use LAST 1 DAY\(isLast ? "" : " or today()") for a single day", at: at.position)
        }
        return period
    }
}

extension RelativePeriod {
    private static let starts: [DurationUnit: TimeFunction] = [.weeks: .startOfWeek, .months: .startOfMonth, .years: .startOfYear]

    /// `LAST n UNITS` (count given), `THIS UNIT` or `LAST UNIT` (the previous calendar one);
    /// nil for a calendar day (`THIS DAY`), which is `today()`.
    init?(count: Double?, unit: DurationUnit, isLast: Bool, at: Anchor = Anchor()) {
        let today = Expr.time(.today, at: at)
        func shift(_ e: Expr, _ op: BinaryOperator, _ amount: Double, _ u: DurationUnit) -> Expr {
            .binary(op, e, .duration(Duration(amount, u), at: at), at: at)
        }
        if let count {
            // The n units ending today: from the day after today - n units.
            self.init(from: shift(shift(today, .minus, count, unit), .plus, 1, .days), through: today)
            return
        }
        guard let start = Self.starts[unit] else { return nil }
        let startOfCurrent = Expr.time(start, at: at)
        if !isLast {
            self.init(from: startOfCurrent, through: today)
        } else {
            self.init(from: shift(startOfCurrent, .minus, 1, unit), through: shift(startOfCurrent, .minus, 1, .days))
        }
    }
}

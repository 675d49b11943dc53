/// Ready questions for people new to HealthQL (`.examples` in the REPL): each prints its query,
/// `.examples N` runs one. Every one runs on the bundled sample export (REPLTests checks it).
package struct Example: Sendable {
    package var question: String
    package var query: String
}

package enum Examples {
    package static let all: [Example] = [
        Example(question: "Steps per week, last month",
                query: "SELECT week, sum(value) AS steps FROM steps WHERE date IN LAST MONTH GROUP BY week;"),
        Example(question: "Steps per day, the last 7 days",
                query: "SELECT day, sum(value) AS steps FROM steps WHERE date IN LAST 7 DAYS GROUP BY day;"),
        Example(question: "Days over 10,000 steps",
                query: "SELECT date, steps FROM daily WHERE steps > 10000 ORDER BY steps DESC;"),
        Example(question: "Resting heart rate per month",
                query: "SELECT month, avg(value) AS bpm, min(value), max(value) FROM resting_heart_rate GROUP BY month;"),
        Example(question: "Nights under 6 hours of sleep",
                query: "SELECT date, asleep / 60 AS hours, deep, rem FROM sleep WHERE asleep < 360 ORDER BY date;"),
        Example(question: "Average sleep this month",
                query: "SELECT avg(asleep) / 60 AS hours, avg(deep) AS deep_min, avg(rem) AS rem_min FROM sleep WHERE date IN THIS MONTH;"),
        Example(question: "Workouts by type",
                query: "SELECT type, count(*) AS workouts, sum(duration) AS minutes, sum(distance) AS meters FROM workouts "
                    + "GROUP BY type ORDER BY workouts DESC;"),
        Example(question: "Heart rate per week: median, 95th percentile, highest",
                query: "SELECT week, p50(value), p95(value), max(value) FROM heart_rate GROUP BY week;"),
        Example(question: "Most active hours of the last 4 weeks",
                query: "SELECT hour, sum(value) AS steps FROM steps WHERE date IN LAST 4 WEEKS GROUP BY hour ORDER BY steps DESC LIMIT 5;"),
        Example(question: "Days the move ring closed",
                query: "SELECT date, active_energy, active_energy_goal FROM activity WHERE active_energy >= active_energy_goal;"),
        Example(question: "Steps the day after a short night (under 7 h)",
                query: "SELECT avg(steps.value) FROM sleep JOIN steps ON steps.date = sleep.date + 1d WHERE sleep.asleep < 420;"),
        Example(question: "Monthly totals and the average day",
                query: "SELECT year, month, steps, days_with_data, steps / days_with_data AS steps_per_day FROM monthly;"),
        Example(question: "Where the step samples come from (raw, before merging)",
                query: "SELECT source, count(*) AS samples, sum(value) AS raw_total FROM steps WHERE date BETWEEN start_of_month() - 1mo AND today() GROUP BY source;"),
    ]
}

extension Repl {
    /// `.examples`: the list; `.examples N`: question N's query, then its result.
    func examples(_ choice: String?) {
        guard let choice else {
            for (i, example) in Examples.all.enumerated() {
                write("\(String(i + 1).leftPadded(3)). \(example.question)\n       \(example.query)\n")
            }
            write("Run one with .examples N (or type or paste its query).\n")
            return
        }
        guard let n = Int(choice), Examples.all.indices.contains(n - 1) else {
            write("usage: .examples [N], N from 1 to \(Examples.all.count)\n")
            return
        }
        let example = Examples.all[n - 1]
        write("-- \(example.question)\n\(example.query)\n")
        execute(example.query)
    }
}

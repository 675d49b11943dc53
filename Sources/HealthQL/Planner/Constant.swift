import Foundation
import HealthCore

/// A value known when the query is planned: literals, `today()`, `now() - 12h`, `'2024-01-31' + 1d`.
/// Folded in Swift, in the store's zone, and bound as a parameter.
enum Constant: Equatable {
    case number(Double)
    case text(String)
    case date(CivilDate)
    case instant(Timestamp)
    case duration(Duration)
    case null
}

/// "Now" for one query and the zone it is read in.
struct QueryClock {
    var now: Timestamp
    var calendar: LocalCalendar
    var weekStart: Int
    /// The day `today()` names when it is not the local day of `now` (the data's last complete day).
    var today: CivilDate? = nil

    mutating func value(_ f: TimeFunction) -> Constant {
        let today = today ?? calendar.localDate(of: now)
        switch f {
        case .now: return .instant(now)
        case .today: return .date(today)
        case .startOfWeek: return .date(today.startOfWeek(weekStart: weekStart))
        case .startOfMonth: return .date(CivilDate(year: today.year, month: today.month, day: 1))
        case .startOfYear: return .date(CivilDate(year: today.year, month: 1, day: 1))
        }
    }

    /// `YYYY-MM-DD` → a date; `YYYY-MM-DD HH:MM[:SS]` (or with `T`) → a local instant.
    mutating func parseTime(_ text: String) -> Constant? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // Years 1…9999 only: dates far outside would overflow instant arithmetic.
        if trimmed.count == 10, let d = CivilDate(iso: trimmed), Self.isReal(d, trimmed) { return .date(d) }
        let parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "T" })
        guard parts.count == 2, parts[0].count == 10, let d = CivilDate(iso: parts[0]), Self.isReal(d, String(parts[0]))
        else { return nil }
        let clock = parts[1].split(separator: ":").map { Int64($0) }
        guard clock.count == 2 || clock.count == 3, !clock.contains(nil) else { return nil }
        let h = clock[0]!, m = clock[1]!, s = clock.count == 3 ? clock[2]! : 0
        guard (0..<24).contains(h), (0..<60).contains(m), (0..<60).contains(s) else { return nil }
        return .instant(calendar.instant(on: d, secondOfDay: h * 3600 + m * 60 + s))
    }

    /// Written exactly as `YYYY-MM-DD`, year 1 or later, and a day the month has (no 2024-02-31).
    static func isReal(_ d: CivilDate, _ text: String) -> Bool {
        d.iso8601 == text && d.year >= 1 && CivilDate(daysSinceEpoch: d.daysSinceEpoch) == d
    }

    /// Start of the local day.
    mutating func instant(of date: CivilDate) -> Timestamp { calendar.startOfDay(date) }
    mutating func date(of instant: Timestamp) -> CivilDate { calendar.localDate(of: instant) }
}

extension Constant {
    var describe: String {
        switch self {
        case .number: "a number"
        case .text: "text"
        case .date: "a date"
        case .instant: "a time"
        case .duration: "a duration"
        case .null: "NULL"
        }
    }
}

/// Folding of constant expressions; nil when the expression reads a field or an aggregate.
struct ConstantFolder {
    var clock: QueryClock

    mutating func fold(_ e: Expr) throws(HealthQLError) -> Constant? {
        switch e {
        case .number(let v, _): return .number(v)
        case .string(let s, _): return .text(s)
        case .duration(let d, _): return .duration(d)
        case .null: return .null
        case .time(let f, _): return clock.value(f)
        case .unary(.negate, let inner, let at):
            guard let c = try fold(inner) else { return nil }
            switch c {
            case .number(let v): return .number(-v)
            case .duration(let d): return .duration(Duration(-d.amount, d.unit))
            default: throw HealthQLError("Cannot negate \(c.describe)", at: at.position)
            }
        case .binary(let op, let l, let r, let at) where [.plus, .minus, .times, .divide].contains(op):
            guard let a = try fold(l), let b = try fold(r) else { return nil }
            return try arithmetic(op, a, b, at: at)
        default:
            return nil
        }
    }

    private mutating func arithmetic(_ op: BinaryOperator, _ a: Constant, _ b: Constant, at: Anchor) throws(HealthQLError) -> Constant {
        if case .null = a { return .null }
        if case .null = b { return .null }
        let sign: Double = op == .minus ? -1 : 1
        switch (a, b) {
        case (.number(let x), .number(let y)):
            switch op {
            case .plus: return .number(x + y)
            case .minus: return .number(x - y)
            case .times: return .number(x * y)
            default: return y == 0 ? .null : .number(x / y)
            }
        case (.date(let d), .duration(let span)) where op == .plus || op == .minus:
            if let moved = LocalTime.adding(span, sign: sign, to: d) { return .date(moved) }
            return .instant(LocalTime.adding(span, sign: sign, to: clock.instant(of: d), in: &clock.calendar))
        case (.instant(let t), .duration(let span)) where op == .plus || op == .minus:
            return .instant(LocalTime.adding(span, sign: sign, to: t, in: &clock.calendar))
        case (.duration(let span), .date), (.duration(let span), .instant):
            guard op == .plus else { break }
            return try arithmetic(.plus, b, .duration(span), at: at)
        case (.text(let s), .duration):
            guard let time = clock.parseTime(s) else {
                throw HealthQLError("'\(s)' is not a date (use 'YYYY-MM-DD')", at: at.position)
            }
            return try arithmetic(op, time, b, at: at)
        case (.duration(let x), .duration(let y)) where x.unit == y.unit && (op == .plus || op == .minus):
            let amount = x.amount + sign * y.amount
            guard abs(amount) <= DurationLimit.maxAmount else {
                throw HealthQLError("Duration too long (at most \(Int(DurationLimit.maxAmount)) units)", at: at.position)
            }
            return .duration(Duration(amount, x.unit))
        case (.duration(let span), .number(let n)) where op == .times || op == .divide:
            guard n != 0 || op == .times else { return .null }
            let amount = op == .times ? span.amount * n : span.amount / n
            guard abs(amount) <= DurationLimit.maxAmount else {
                throw HealthQLError("Duration too long (at most \(Int(DurationLimit.maxAmount)) units)", at: at.position)
            }
            return .duration(Duration(amount, span.unit))
        default:
            break
        }
        throw HealthQLError("Cannot apply '\(op.rawValue)' to \(a.describe) and \(b.describe)", at: at.position)
    }
}

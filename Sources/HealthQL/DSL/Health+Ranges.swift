/// The DSL's BETWEEN, LIKE and relative periods: the same IR the parser builds for
/// `value BETWEEN 1 AND 2`, `source LIKE '%Watch%'` and `date IN LAST 4 WEEKS`.
public enum Period: Sendable {
    /// The n days (weeks, months, years) that end today.
    case last(Int, DurationUnit)
    /// The current calendar week, month or year through today.
    case this(DurationUnit)
    /// The previous calendar week, month or year, whole.
    case previous(DurationUnit)
}

extension FieldRef {
    public func isBetween(_ low: Value, _ high: Value) -> Predicate {
        Predicate(expr: .binary(.and, .binary(.greaterEqual, expr, low.expr, at: Anchor()),
                                .binary(.lessEqual, expr, high.expr, at: Anchor()), at: Anchor()))
    }

    public func isLike(_ pattern: String) -> Predicate {
        Predicate(expr: .binary(.like, expr, .string(pattern, at: Anchor()), at: Anchor()))
    }

    /// `date IN LAST 4 WEEKS` is `.isIn(.last(4, .weeks))`. A day has no calendar period of its own:
    /// `.this(.days)` and `.previous(.days)` mean today and yesterday.
    public func isIn(_ period: Period) -> Predicate {
        let range: RelativePeriod? = switch period {
        case .last(let n, let unit): RelativePeriod(count: Double(max(1, n)), unit: unit, isLast: true)
        case .this(let unit): RelativePeriod(count: nil, unit: unit, isLast: false) ?? RelativePeriod(count: 1, unit: .days, isLast: true)
        case .previous(let unit): RelativePeriod(count: nil, unit: unit, isLast: true)
            ?? RelativePeriod(from: .binary(.minus, .time(.today, at: Anchor()), .duration(Duration(1, .days), at: Anchor()), at: Anchor()),
                              through: .binary(.minus, .time(.today, at: Anchor()), .duration(Duration(1, .days), at: Anchor()), at: Anchor()))
        }
        let bounds = range ?? RelativePeriod(from: .time(.today, at: Anchor()), through: .time(.today, at: Anchor()))
        return Predicate(expr: .binary(.and, .binary(.greaterEqual, expr, bounds.from, at: Anchor()),
                                       .binary(.lessEqual, expr, bounds.through, at: Anchor()), at: Anchor()))
    }
}

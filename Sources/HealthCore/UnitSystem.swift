/// The units a person reads: the store stays canonical (m, kg, °C, kcal, minutes); CSV, the
/// workbook and the report show values in these. Pipeline (or person) key `units`. How a
/// column is shown in them (its name, title and conversion) is `HealthPresentation`'s
/// `ShownColumn`.
package enum UnitSystem: String, Codable, Sendable, CaseIterable {
    case metric, imperial
}

/// Converts values printed in the user's display unit into a canonical unit, by the
/// record's own `unit` string (the same type differs between users and over time:
/// `kJ`/`Cal`/`kcal`, `mi`/`km`/`m`, `lb`/`kg`, `degF`/`degC` …).
///
/// Each known unit belongs to a dimension and has a factor (and offset, for temperatures)
/// to that dimension's base unit; the canonical unit of a record is its dimension's
/// default unless its type asks for another (dietary masses are grams, not kilograms).
public enum UnitConverter {
    public struct Unit: Sendable {
        public var dimension: String
        /// value_in_base = value * factor + offset
        public var factor: Double
        public var offset: Double
    }

    public struct Conversion: Sendable {
        public var canonicalUnit: String
        public var scale: Double
        public var offset: Double
        public func apply(_ v: Double) -> Double { v * scale + offset }
    }

    /// The conversion of `unit` into `target` (default: the dimension's canonical unit), or
    /// nil if `unit` is unknown or of another dimension.
    public static func conversion(for unit: String, to target: String? = nil) -> Conversion? {
        guard let from = lookup(unit) else { return nil }
        let preferred = target.flatMap { lookup($0)?.dimension == from.dimension ? $0 : nil }
        let targetName = preferred ?? defaults[from.dimension] ?? unit
        guard let to = lookup(targetName), to.dimension == from.dimension else { return nil }
        // base = v*f1 + o1; target = (base - o2) / f2
        return Conversion(canonicalUnit: targetName, scale: from.factor / to.factor,
                          offset: (from.offset - to.offset) / to.factor)
    }

    /// `(value, unit)` in canonical form; the input unchanged when the unit is unknown.
    public static func canonical(_ value: Double, unit: String, target: String? = nil) -> (Double, String) {
        guard let c = conversion(for: unit, to: target) else { return (value, unit) }
        return (c.apply(value), c.canonicalUnit)
    }

    static func lookup(_ unit: String) -> Unit? {
        if let known = units[unit] { return known }
        // `mmol<M>/L`: HealthKit's molar unit with the molar mass M (g/mol) inside:
        // 1 mmol/L = M/10 mg/dL.
        if unit.hasPrefix("mmol<"), unit.hasSuffix(">/L"), let mass = Double(unit.dropFirst(5).dropLast(3)) {
            return Unit(dimension: "concentration", factor: mass / 10, offset: 0)
        }
        return nil
    }

    static let defaults: [String: String] = [
        "energy": "kcal", "length": "m", "mass": "kg", "temperature": "degC", "time": "min", "frequency": "count/min",
        "speed": "m/s", "vo2": "mL/min·kg", "concentration": "mg/dL", "volume": "L", "pressure": "mmHg",
        "count": "count", "percent": "%", "sound": "dBASPL", "hearing": "dBHL", "power": "W", "met": "kcal/hr·kg",
        "voltage": "V", "conductance": "S", "iu": "IU", "illuminance": "lx", "effort": "appleEffortScore",
        "flow": "L/min",
    ]

    private static let units: [String: Unit] = {
        var t: [String: Unit] = [:]
        func add(_ dimension: String, _ pairs: [(String, Double)], offset: Double = 0) {
            for (u, f) in pairs { t[u] = Unit(dimension: dimension, factor: f, offset: offset) }
        }
        // `Cal` is the food calorie (= kcal).
        add("energy", [("kcal", 1), ("Cal", 1), ("kJ", 1 / 4.184), ("J", 1 / 4184), ("cal", 0.001)])
        add("length", [("m", 1), ("km", 1000), ("cm", 0.01), ("mm", 0.001), ("mi", 1609.344), ("ft", 0.3048),
                       ("in", 0.0254), ("yd", 0.9144)])
        add("mass", [("kg", 1), ("g", 0.001), ("mg", 1e-6), ("mcg", 1e-9), ("µg", 1e-9), ("lb", 0.45359237),
                     ("oz", 0.028349523125), ("st", 6.35029318)])
        add("temperature", [("degC", 1)])
        t["degF"] = Unit(dimension: "temperature", factor: 5.0 / 9.0, offset: -32 * 5.0 / 9.0)
        t["K"] = Unit(dimension: "temperature", factor: 1, offset: -273.15)
        add("time", [("min", 1), ("s", 1.0 / 60), ("ms", 1.0 / 60_000), ("hr", 60), ("h", 60), ("d", 1440)])
        add("frequency", [("count/min", 1), ("count/s", 60), ("count/hr", 1.0 / 60)])
        add("speed", [("m/s", 1), ("km/hr", 1000.0 / 3600), ("mi/hr", 1609.344 / 3600), ("m/min", 1.0 / 60),
                      ("m/hr", 1.0 / 3600)])
        add("vo2", [("mL/min·kg", 1), ("mL/kg·min", 1), ("mL/(kg·min)", 1), ("mL/kg/min", 1)])
        add("met", [("kcal/hr·kg", 1)])
        add("concentration", [("mg/dL", 1)])
        add("volume", [("L", 1), ("mL", 0.001), ("fl_oz_us", 0.0295735295625), ("fl_oz_imp", 0.0284130625),
                       ("cup_us", 0.2365882365), ("cup_imp", 0.284130625), ("pt_us", 0.473176473)])
        add("pressure", [("mmHg", 1), ("cmAq", 0.73555912), ("kPa", 7.50061683), ("inHg", 25.4)])
        add("count", [("count", 1)])
        add("percent", [("%", 1)])
        add("sound", [("dBASPL", 1)])
        add("hearing", [("dBHL", 1)])
        // kcal a day: a basal metabolic rate (Health Connect stores it in watts).
        add("power", [("W", 1), ("kW", 1000), ("kcal/d", 4184.0 / 86_400)])
        add("voltage", [("V", 1), ("mV", 0.001), ("mcV", 1e-6)])
        add("conductance", [("S", 1), ("mcS", 1e-6)])
        add("iu", [("IU", 1)])
        add("illuminance", [("lx", 1)])
        add("effort", [("appleEffortScore", 1)])
        add("flow", [("L/min", 1), ("L/s", 60), ("mL/min", 0.001)])
        return t
    }()
}

extension UnitConverter {
    /// `value` in the canonical unit of `unit` (unchanged when the unit is unknown).
    public static func convert(_ value: Double, _ unit: String) -> Double { canonical(value, unit: unit).0 }

    /// The canonical unit for values printed in `unit`.
    public static func canonicalUnit(_ unit: String) -> String { conversion(for: unit)?.canonicalUnit ?? unit }
}

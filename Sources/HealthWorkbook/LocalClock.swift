import Foundation

/// Instants as wall-clock seconds in a zone (what a spreadsheet's date-time cell holds).
struct LocalClock: Sendable {
    let zone: TimeZone
    func seconds(_ utcSeconds: Double) -> Double {
        utcSeconds + Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: utcSeconds)))
    }
}

import HealthCore

/// Instants as wall-clock seconds where each was recorded (what a spreadsheet's date-time cell
/// holds): the store's calendar's offset (its zone, or a traveller's timeline).
struct LocalClock: Sendable {
    let clock: WallClock
    func seconds(_ utcSeconds: Double) -> Double {
        utcSeconds + Double(clock.offset(atSecond: Int64(utcSeconds.rounded(.down))))
    }
}

import Foundation
import HealthCore

/// The live progress line on an interactive terminal: phase, overall percent, records/s, ETA.
/// Redrawn at most four times a second, on stderr. The phases share the bar as SPEC's runs
/// do: read 0–15 %, daily 15–40 %, weekly 40–65 %, monthly 65–85 %, yearly 85–95 %, finish
/// 95–100 %.
public final class ProgressReporter: @unchecked Sendable {
    public enum Style: Sendable { case none, terminal }

    private let style: Style
    private let totalBytes: Int64
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var drew = false

    public init(style: Style, totalBytes: Int64) {
        self.style = style
        self.totalBytes = totalBytes
    }

    func update(position: InputPosition, records: Int) {
        guard style == .terminal else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.25 else { return }
        lastDraw = now
        let elapsed = now.timeIntervalSince(started)
        let fraction = position.fraction
        let rate = elapsed > 0 ? Double(records) / elapsed : 0
        let eta = fraction > 0.01 ? elapsed * (1 - fraction) / fraction : 0
        draw(String(format: "read     %5.1f%%  %9.0f records/s  read ETA %3.0f s", fraction * 15, rate, eta))
    }

    func phase(_ name: String, percent: Int? = nil) {
        guard style == .terminal else { return }
        draw(percent.map { name.padding(toLength: 8, withPad: " ", startingAt: 0) + String(format: " %5.1f%%", Double($0)) }
             ?? "\(name)…")
    }

    func done() {
        guard style == .terminal, drew else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private func draw(_ line: String) {
        drew = true
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
    }
}

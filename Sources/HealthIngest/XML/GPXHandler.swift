import HealthCore

/// Reads `trkpt` points of a GPX 1.1 route file (times in UTC, speed/course/accuracy in
/// `<extensions>`). Text is only collected inside the few leaf elements we read.
final class GPXHandler: SAXHandler {
    /// Points read and not yet taken (the reader sends them on in parts).
    var points: [RoutePoint] = []
    private var current: RoutePoint?
    private var field: Field?
    private var buffer: [UInt8] = []

    private enum Field { case ele, time, speed, course, hAcc, vAcc }

    override var receivesText: Bool { true }

    override func startElement(_ name: ByteSpan, _ attributes: SAXAttributes) {
        if name.equals("trkpt") {
            var lat: Double?, lon: Double?
            for i in 0..<attributes.count {
                if attributes.name(i).equals("lat") { lat = attributes.value(i).double }
                else if attributes.name(i).equals("lon") { lon = attributes.value(i).double }
            }
            current = lat.flatMap { la in lon.map { RoutePoint(time: nil, latitude: la, longitude: $0) } }
            return
        }
        guard current != nil else { return }
        field = switch true {
        case name.equals("ele"): .ele
        case name.equals("time"): .time
        case name.equals("speed"): .speed
        case name.equals("course"): .course
        case name.equals("hAcc"): .hAcc
        case name.equals("vAcc"): .vAcc
        default: nil
        }
        buffer.removeAll(keepingCapacity: true)
    }

    override func characters(_ text: ByteSpan) {
        guard field != nil else { return }
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.start, count: text.count))
    }

    override func endElement(_ name: ByteSpan) {
        if name.equals("trkpt") {
            if let point = current { points.append(point) }
            current = nil
            return
        }
        guard let field, current != nil else { return }
        self.field = nil
        buffer.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return }
            var span = ByteSpan(start: base, count: buf.count)
            while !span.isEmpty && (span[0] == 0x20 || span[0] == 0x0A || span[0] == 0x09) { span = span.dropFirst(1) }
            var n = span.count
            while n > 0 && (span[n - 1] == 0x20 || span[n - 1] == 0x0A || span[n - 1] == 0x09) { n -= 1 }
            span = ByteSpan(start: span.start, count: n)
            switch field {
            case .ele: current?.altitude = span.double
            case .time: current?.time = DateParser.parse(span)?.timestamp
            case .speed: current?.speed = span.double
            case .course: current?.course = span.double
            case .hAcc: current?.horizontalAccuracy = span.double
            case .vAcc: current?.verticalAccuracy = span.double
            }
        }
    }
}

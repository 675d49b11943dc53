/// JSON text of the resources' objects, keys sorted: the same object gives the same bytes.
/// Foundation's `JSONSerialization` took 0.5 ms a resource on Linux (a cast per value through
/// NSNumber and an ICU collation per key comparison): three quarters of a year's FHIR output.
enum FHIRJSON {
    static func write(_ value: Any, into out: inout [UInt8]) {
        switch value {
        case let s as String: string(s, into: &out)
        case let b as Bool: out += Array((b ? "true" : "false").utf8)
        case let i as Int: out += Array(String(i).utf8)
        case let d as Double: number(d, into: &out)
        case let object as [String: Any]:
            out.append(UInt8(ascii: "{"))
            for (i, key) in object.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                string(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(object[key]!, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case let array as [Any]:
            out.append(UInt8(ascii: "["))
            for (i, element) in array.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        default:
            out += Array("null".utf8)
        }
    }

    /// A whole number as an integer (`3010`, not `3010.0`), else Swift's shortest form that reads
    /// back as the same double; not a number: null (JSON has none).
    static func number(_ d: Double, into out: inout [UInt8]) {
        guard d.isFinite else { out += Array("null".utf8); return }
        if d == d.rounded(), abs(d) < 1e15 { out += Array(String(Int64(d)).utf8); return }
        out += Array(String(d).utf8)
    }

    static func string(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

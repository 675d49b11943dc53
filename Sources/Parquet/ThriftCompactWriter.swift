/// A writer for the Thrift compact protocol, enough for Parquet's metadata structs.
///
/// Integers are zigzag varints, field headers carry the id as a delta from the previous
/// field of the same struct when it is 1…15, booleans live in the field header's type
/// nibble, and a struct ends with a stop byte (0).
struct ThriftCompactWriter {
    /// Compact protocol type ids.
    enum CType: UInt8 {
        case boolTrue = 1, boolFalse = 2, byte = 3, i16 = 4, i32 = 5, i64 = 6, double = 7
        case binary = 8, list = 9, set = 10, map = 11, `struct` = 12
    }

    private(set) var bytes: [UInt8] = []
    private var lastFieldId: Int16 = 0
    private var fieldIdStack: [Int16] = []

    init() {}

    /// Clears the output, keeping its capacity.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        lastFieldId = 0
        fieldIdStack.removeAll(keepingCapacity: true)
    }

    // MARK: Primitives

    mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func writeZigzag(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func writeBinary(_ value: some Collection<UInt8>) {
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func writeString(_ value: String) {
        writeBinary(value.utf8)
    }

    // MARK: Structs

    /// Writes a struct's fields (through `body`) followed by the stop byte.
    mutating func writeStruct(_ body: (inout ThriftCompactWriter) -> Void) {
        fieldIdStack.append(lastFieldId)
        lastFieldId = 0
        body(&self)
        bytes.append(0)
        lastFieldId = fieldIdStack.removeLast()
    }

    private mutating func fieldHeader(_ id: Int16, _ type: CType) {
        let delta = Int(id) - Int(lastFieldId)
        if delta > 0 && delta <= 15 {
            bytes.append(UInt8(delta << 4) | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            writeZigzag(Int64(id))
        }
        lastFieldId = id
    }

    mutating func field(_ id: Int16, bool value: Bool) {
        fieldHeader(id, value ? .boolTrue : .boolFalse)
    }

    mutating func field(_ id: Int16, i16 value: Int16) {
        fieldHeader(id, .i16)
        writeZigzag(Int64(value))
    }

    mutating func field(_ id: Int16, i32 value: Int32) {
        fieldHeader(id, .i32)
        writeZigzag(Int64(value))
    }

    mutating func field(_ id: Int16, i64 value: Int64) {
        fieldHeader(id, .i64)
        writeZigzag(value)
    }

    mutating func field(_ id: Int16, binary value: some Collection<UInt8>) {
        fieldHeader(id, .binary)
        writeBinary(value)
    }

    mutating func field(_ id: Int16, string value: String) {
        field(id, binary: value.utf8)
    }

    mutating func field(_ id: Int16, struct body: (inout ThriftCompactWriter) -> Void) {
        fieldHeader(id, .struct)
        writeStruct(body)
    }

    /// A list field's header; the caller then writes exactly `count` elements.
    mutating func fieldList(_ id: Int16, of elementType: CType, count: Int) {
        fieldHeader(id, .list)
        writeListHeader(elementType, count: count)
    }

    mutating func writeListHeader(_ elementType: CType, count: Int) {
        if count < 15 {
            bytes.append(UInt8(count << 4) | elementType.rawValue)
        } else {
            bytes.append(0xF0 | elementType.rawValue)
            writeVarint(UInt64(count))
        }
    }

    mutating func field(_ id: Int16, i32List values: [Int32]) {
        fieldList(id, of: .i32, count: values.count)
        for v in values { writeZigzag(Int64(v)) }
    }

    mutating func field(_ id: Int16, stringList values: [String]) {
        fieldList(id, of: .binary, count: values.count)
        for v in values { writeString(v) }
    }
}

import CSQLite

/// The arguments of one call of an application-defined SQL function, read in place (no copy):
/// `args[0].int64` is what SQLite's `sqlite3_value_int64` makes of the value (text "12" is
/// 12, NULL is 0), so a function converts as SQLite's own functions do.
public struct SQLFunctionArguments {
    let values: UnsafeMutablePointer<OpaquePointer?>?
    public let count: Int

    public subscript(index: Int) -> SQLArgument {
        precondition(index >= 0 && index < count, "SQL function argument \(index) of \(count)")
        return SQLArgument(value: values?[index])
    }
}

/// One argument of an SQL function call, valid during the call only.
public struct SQLArgument {
    let value: OpaquePointer?
    public var isNull: Bool { sqlite3_value_type(value) == SQLITE_NULL }
    public var int64: Int64 { sqlite3_value_int64(value) }
    public var double: Double { sqlite3_value_double(value) }
    /// The value as text (nil for NULL).
    public var text: String? { sqlite3_value_text(value).map { String(cString: $0) } }
}

/// An application-defined scalar SQL function, in the spirit of GRDB's `DatabaseFunction`:
/// a name, a number of arguments, and a Swift closure from arguments to a value.
public struct DatabaseFunction {
    public let name: String
    public let argumentCount: Int
    /// Same arguments, same result: SQLite may factor calls out of a query.
    public let deterministic: Bool
    let body: (SQLFunctionArguments) throws -> SQLValue

    public init(_ name: String, argumentCount: Int, deterministic: Bool = true,
                _ body: @escaping (SQLFunctionArguments) throws -> SQLValue) {
        self.name = name; self.argumentCount = argumentCount; self.deterministic = deterministic; self.body = body
    }
}

/// The state of one group of an aggregate SQL function: made on the group's first row (or
/// for its result, when the group has no row), given each row, asked for the result once.
public protocol DatabaseAggregate: AnyObject {
    init()
    func step(_ arguments: SQLFunctionArguments) throws
    func finalize() throws -> SQLValue
}

/// An application-defined aggregate SQL function (`GROUP BY`'s statistics SQLite lacks).
public struct DatabaseAggregateFunction {
    public let name: String
    public let argumentCount: Int
    public let deterministic: Bool
    let make: () -> any DatabaseAggregate

    public init<Aggregate: DatabaseAggregate>(_ name: String, argumentCount: Int, deterministic: Bool = true,
                                             _ aggregate: Aggregate.Type) {
        self.name = name; self.argumentCount = argumentCount; self.deterministic = deterministic
        make = { Aggregate() }
    }
}

extension Database {
    /// Registers `function` on this connection (until it closes; a function of the same name
    /// and argument count is replaced).
    public func add(function: DatabaseFunction) throws {
        let box = Unmanaged.passRetained(ScalarBox(function.body)).toOpaque()
        let rc = sqlite3_create_function_v2(handle, function.name, Int32(function.argumentCount),
                                            Self.flags(function.deterministic), box, scalarCall, nil, nil, releaseScalar)
        guard rc == SQLITE_OK else { throw error(rc, "cannot register SQL function \(function.name)") }
    }

    /// Registers an aggregate function on this connection.
    public func add(aggregate: DatabaseAggregateFunction) throws {
        let box = Unmanaged.passRetained(AggregateBox(aggregate.make)).toOpaque()
        let rc = sqlite3_create_function_v2(handle, aggregate.name, Int32(aggregate.argumentCount),
                                            Self.flags(aggregate.deterministic), box, nil, aggregateStep, aggregateFinal,
                                            releaseAggregate)
        guard rc == SQLITE_OK else { throw error(rc, "cannot register SQL aggregate \(aggregate.name)") }
    }

    private static func flags(_ deterministic: Bool) -> Int32 {
        SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
    }
}

// MARK: the C side: closures reached through the function's user data

private final class ScalarBox {
    let body: (SQLFunctionArguments) throws -> SQLValue
    init(_ body: @escaping (SQLFunctionArguments) throws -> SQLValue) { self.body = body }
}

private final class AggregateBox {
    let make: () -> any DatabaseAggregate
    init(_ make: @escaping () -> any DatabaseAggregate) { self.make = make }
}

private func setResult(_ ctx: OpaquePointer?, _ value: SQLValue) {
    switch value {
    case .null: sqlite3_result_null(ctx)
    case .integer(let v): sqlite3_result_int64(ctx, v)
    case .real(let v): sqlite3_result_double(ctx, v)
    // SQLITE_TRANSIENT: SQLite copies the text before this returns.
    case .text(let v): sqlite3_result_text(ctx, v, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }
}

private func setError(_ ctx: OpaquePointer?, _ error: any Error) {
    sqlite3_result_error(ctx, "\(error)", -1)
}

private let scalarCall: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { ctx, count, args in
    let box = Unmanaged<ScalarBox>.fromOpaque(sqlite3_user_data(ctx)!).takeUnretainedValue()
    do { setResult(ctx, try box.body(SQLFunctionArguments(values: args, count: Int(count)))) } catch { setError(ctx, error) }
}

private let releaseScalar: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
    if let pointer { Unmanaged<ScalarBox>.fromOpaque(pointer).release() }
}

private let releaseAggregate: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
    if let pointer { Unmanaged<AggregateBox>.fromOpaque(pointer).release() }
}

/// The group's slot in SQLite's aggregate context (zero-filled by SQLite): a retained pointer
/// to the group's state, made on first use when `create`.
private func aggregateState(_ ctx: OpaquePointer?, create: Bool) -> (any DatabaseAggregate)? {
    guard let slot = sqlite3_aggregate_context(ctx, create ? Int32(MemoryLayout<UnsafeMutableRawPointer?>.size) : 0)?
        .assumingMemoryBound(to: UnsafeMutableRawPointer?.self) else { return nil }
    if let existing = slot.pointee { return Unmanaged<StateBox>.fromOpaque(existing).takeUnretainedValue().state }
    guard create else { return nil }
    let box = Unmanaged<AggregateBox>.fromOpaque(sqlite3_user_data(ctx)!).takeUnretainedValue()
    let made = StateBox(box.make())
    slot.pointee = Unmanaged.passRetained(made).toOpaque()
    return made.state
}

private final class StateBox {
    let state: any DatabaseAggregate
    init(_ state: any DatabaseAggregate) { self.state = state }
}

private let aggregateStep: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { ctx, count, args in
    guard let state = aggregateState(ctx, create: true) else { sqlite3_result_error_nomem(ctx); return }
    do { try state.step(SQLFunctionArguments(values: args, count: Int(count))) } catch { setError(ctx, error) }
}

/// Called once per group: the state is released here (a group without rows gets a fresh one).
private let aggregateFinal: @convention(c) (OpaquePointer?) -> Void = { ctx in
    let state: any DatabaseAggregate
    if let slot = sqlite3_aggregate_context(ctx, 0)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self),
       let pointer = slot.pointee {
        slot.pointee = nil
        state = Unmanaged<StateBox>.fromOpaque(pointer).takeRetainedValue().state
    } else {
        state = Unmanaged<AggregateBox>.fromOpaque(sqlite3_user_data(ctx)!).takeUnretainedValue().make()
    }
    do { setResult(ctx, try state.finalize()) } catch { setError(ctx, error) }
}

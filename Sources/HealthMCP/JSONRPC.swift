import Foundation

/// JSON-RPC 2.0 as the Model Context Protocol uses it over stdio: one message per line.
/// Values are Foundation's JSON objects (`JSONSerialization`): requests arrive as whatever the
/// client sent, and a typed model would have to re-encode the parts it does not know.
package enum JSONRPC {
    /// Standard error codes, and the MCP's own.
    package enum Code: Int, Sendable {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case internalError = -32603
        /// MCP: a resource URI the server does not have.
        case resourceNotFound = -32002
    }

    /// A request's failure, answered as `{"error": {"code", "message"}}`.
    package struct Failure: Error, Sendable {
        package var code: Code
        package var message: String
        package init(_ code: Code, _ message: String) { self.code = code; self.message = message }
    }

    /// One incoming line: a request (with id), a notification (without), or why it is neither.
    enum Incoming {
        case request(id: Any, method: String, params: [String: Any])
        case notification(method: String, params: [String: Any])
        /// Not a request: answered with this error (and the id when one could be read).
        case invalid(id: Any?, Failure)
    }

    static func decode(_ line: Data) -> Incoming {
        guard let value = try? JSONSerialization.jsonObject(with: line, options: [.fragmentsAllowed]) else {
            return .invalid(id: nil, Failure(.parseError, "Parse error: the line is not JSON"))
        }
        guard let object = value as? [String: Any] else {
            return .invalid(id: nil, Failure(.invalidRequest, "Invalid Request: a message is one JSON object (batches are not supported)"))
        }
        let id = object["id"]
        // An id is a string or a number (JSON-RPC 2.0); null or anything else cannot be answered by id.
        let validID = id.flatMap { $0 is String || $0 is Int || $0 is Double || $0 is NSNumber ? $0 : nil }
        guard object["jsonrpc"] as? String == "2.0" else {
            return .invalid(id: validID, Failure(.invalidRequest, "Invalid Request: \"jsonrpc\" must be \"2.0\""))
        }
        guard let method = object["method"] as? String else {
            return .invalid(id: validID, Failure(.invalidRequest, "Invalid Request: no \"method\""))
        }
        var params: [String: Any] = [:]
        if let given = object["params"] {
            guard let dictionary = given as? [String: Any] else {
                return .invalid(id: validID, Failure(.invalidParams, "Invalid params: \"params\" must be an object"))
            }
            params = dictionary
        }
        if id == nil { return .notification(method: method, params: params) }
        guard let validID else { return .invalid(id: nil, Failure(.invalidRequest, "Invalid Request: \"id\" must be a string or a number")) }
        return .request(id: validID, method: method, params: params)
    }

    static func result(id: Any, _ result: [String: Any]) -> [String: Any] {
        ["jsonrpc": "2.0", "id": id, "result": result]
    }

    static func error(id: Any?, _ failure: Failure) -> [String: Any] {
        ["jsonrpc": "2.0", "id": id ?? NSNull(), "error": ["code": failure.code.rawValue, "message": failure.message]]
    }

    /// One line of compact JSON (JSONSerialization escapes newlines inside strings, so a message never spans lines).
    static func encode(_ message: [String: Any]) -> Data {
        var data = (try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error: the answer could not be encoded"}}"#.utf8)
        data.append(0x0A)
        return data
    }
}

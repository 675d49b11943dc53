import HealthQL

/// What one answer may hold (issue 45): an assistant reads every byte of it into its context,
/// so a query over a year of heart rate must not send 35 MB. At most `rows` rows and `bytes` of
/// JSON, numbers rounded for reading, and no input echoed back whole.
enum AnswerBounds {
    /// Rows kept of a result (the rest are counted: `QueryResult.totalRows`).
    static let rows = 500
    /// Bytes of JSON an answer's rows may take; fewer rows are shown when they take more.
    static let bytes = 64 << 10
    /// Reals to this many significant digits: float noise (`7393.679999999999`) gone, the
    /// store's value to within 1e-10.
    static let significantDigits = 10
    /// The longest message (an error quoting a query) sent back.
    static let messageCharacters = 2_000

    /// The rows as JSON within `bytes`, and how many it shows.
    static func json(_ result: QueryResult) -> (String, Int) {
        var shown = result.rows.count
        var text = ResultFormatter.json(result, rows: shown, significantDigits: significantDigits)
        while text.utf8.count > bytes && shown > 0 {
            // Scale down by what is over, then step until it fits.
            shown = min(shown - 1, max(0, shown * bytes / max(text.utf8.count, 1)))
            text = ResultFormatter.json(result, rows: shown, significantDigits: significantDigits)
        }
        return (text, shown)
    }

    /// A message cut to `messageCharacters`, saying how much was left out.
    static func cut(_ message: String) -> String {
        guard message.count > messageCharacters else { return message }
        return String(message.prefix(messageCharacters)) + "… (\(message.count - messageCharacters) more characters not shown)"
    }
}

import HealthStore

/// The digest of the last import that changed the store, at the top of the page: the same
/// lines the run printed (docs/report-and-workbook.md, "The digest").
enum ReportChanges {
    static func section(_ changes: [DigestChange]) -> String {
        guard !changes.isEmpty else { return "" }
        return #"<section id="changes" class="changes"><h2>What changed in the last import</h2><ul>"#
            + changes.map { #"<li data-change="\#(Format.html($0.kind))">\#(Format.html($0.text))</li>"# }.joined()
            + "</ul></section>"
    }
}

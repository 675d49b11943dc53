/// Which calendar a person's local days follow (issue 48; the pipeline's `localDays`,
/// `--local-days`).
public enum LocalDays: String, Sendable, CaseIterable {
    /// Local to where the person was: along their zone timeline (`LocalCalendar(timeline:)`),
    /// home where the export holds no evidence. The default when no zone is configured.
    case whereRecorded = "where-recorded"
    /// Every day in one zone, as the Health app shows when viewed there: the default when a
    /// zone is configured (`--timezone`, a person's or the pipeline's `timezone`).
    case zone
}

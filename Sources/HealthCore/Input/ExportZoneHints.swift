/// What an export says about the phone's time zone, for runs that configure none (issue
/// 20.10): a cron server in UTC must not read a Seoul phone's nights in UTC. An Apple export's
/// records carry `HKTimeZone` metadata (an IANA name) where the phone wrote it, its
/// `ExportDate` the phone's UTC offset when it exported, `locale` its region; a Health Connect
/// export's records carry their UTC offsets.
package struct ExportZoneHints: Sendable, Equatable {
    /// The first `HKTimeZone` metadata value, if one is in the scanned head.
    package var timeZoneName: String?
    /// The `ExportDate`'s printed offset, in seconds east of UTC, and its instant.
    package var exportOffsetSeconds: Int?
    package var exportDate: Timestamp?
    /// `HealthData@locale` (`en_US`, `ko-Kore_KR`).
    package var locale: String?
    /// Where `timeZoneName` comes from, for the run summary (nil: `HKTimeZone` metadata).
    package var timeZoneReason: String?

    package init(timeZoneName: String? = nil, exportOffsetSeconds: Int? = nil, exportDate: Timestamp? = nil, locale: String? = nil) {
        self.timeZoneName = timeZoneName; self.exportOffsetSeconds = exportOffsetSeconds
        self.exportDate = exportDate; self.locale = locale
    }
}

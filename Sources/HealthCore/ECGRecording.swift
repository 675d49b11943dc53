/// One electrocardiogram of an Apple Watch, from an `electrocardiograms/ecg_….csv` file of the
/// export: its header lines (localized in the file, typed here) and its voltages.
///
/// The name and birth date the file starts with are not kept: the store has the profile for
/// that, and a recording needs neither.
public struct ECGRecording: Sendable, Equatable {
    /// The file's path inside the export (`electrocardiograms/ecg_2020-03-15.csv`).
    public var sourceFile: String
    /// The instant the recording started (its printed offset is the phone's at export time).
    public var recordedAt: Timestamp
    /// The local day of `recordedAt` in the configured zone; set by normalize.
    public var localDate: CivilDate?
    /// As the file words it (`Sinus Rhythm`, `Atrial Fibrillation`, `Inconclusive` …, localized).
    public var classification: String?
    public var symptoms: String?
    public var softwareVersion: String?
    /// The watch's model identifier (`Watch4,4`).
    public var device: String?
    public var sampleRateHz: Double?
    public var lead: String?
    /// The unit the file wrote its voltages in (`µV`; `mV` and `V` are converted).
    public var unit: String?
    /// Beats per minute, from an `Average Heart Rate` line or a classification that names it.
    public var averageHeartRate: Double?
    /// The voltages in µV, in file order (at `sampleRateHz`, 512 Hz on every watch so far).
    public var microvolts: [Double]
    /// Lines among the voltages that were not a number (skipped, so later voltages keep going).
    public var skippedLines: Int

    public init(sourceFile: String, recordedAt: Timestamp, localDate: CivilDate? = nil, classification: String? = nil,
                symptoms: String? = nil, softwareVersion: String? = nil, device: String? = nil,
                sampleRateHz: Double? = nil, lead: String? = nil, unit: String? = nil,
                averageHeartRate: Double? = nil, microvolts: [Double], skippedLines: Int = 0) {
        self.sourceFile = sourceFile; self.recordedAt = recordedAt; self.localDate = localDate
        self.classification = classification; self.symptoms = symptoms; self.softwareVersion = softwareVersion
        self.device = device; self.sampleRateHz = sampleRateHz; self.lead = lead; self.unit = unit
        self.averageHeartRate = averageHeartRate; self.microvolts = microvolts; self.skippedLines = skippedLines
    }
}

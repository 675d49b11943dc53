import Foundation
import HealthCore

/// The header lines of an ECG file (`Recorded Date,2020-03-15 09:41:23 -0700`). Their keys are
/// localized like the export's file names, so a line is recognised by its key where the key is
/// known, else by its value's shape (a date with time and offset, `512 hertz`, `72 BPM`, `µV`,
/// `Watch4,4`), else, in a file whose recorded date had an unknown key (a language not listed
/// here), by its position in Apple's order. A key known to be something else, or new, is
/// skipped: newer exports add lines.
enum ECGHeaderField: CaseIterable {
    case name, dateOfBirth, recordedDate, classification, symptoms, softwareVersion, device, sampleRate, lead, unit
    case averageHeartRate

    /// Lower-cased keys, in English, German, French, Spanish, Italian and Dutch.
    static let names: [String: ECGHeaderField] = {
        var names: [String: ECGHeaderField] = [:]
        let table: [(ECGHeaderField, [String])] = [
            (.name, ["name", "nom", "nombre", "nome", "naam"]),
            (.dateOfBirth, ["date of birth", "geburtsdatum", "date de naissance", "fecha de nacimiento", "data di nascita",
                            "geboortedatum"]),
            (.recordedDate, ["recorded date", "aufnahmedatum", "aufzeichnungsdatum", "date d'enregistrement",
                             "fecha de registro", "fecha de grabación", "data di registrazione", "opnamedatum"]),
            (.classification, ["classification", "klassifizierung", "klassifikation", "clasificación", "classificazione",
                               "classificatie"]),
            (.symptoms, ["symptoms", "symptome", "symptômes", "síntomas", "sintomi", "symptomen"]),
            (.softwareVersion, ["software version", "softwareversion", "version du logiciel", "versión de software",
                                "versión del software", "versione software", "softwareversie"]),
            (.device, ["device", "gerät", "appareil", "dispositivo", "apparaat"]),
            (.sampleRate, ["sample rate", "sampling rate", "abtastrate", "fréquence d'échantillonnage",
                           "frecuencia de muestreo", "frequenza di campionamento", "samplefrequentie"]),
            (.lead, ["lead", "ableitung", "dérivation", "derivación", "derivazione", "afleiding"]),
            (.unit, ["unit", "einheit", "unité", "unidad", "unità", "eenheid"]),
            (.averageHeartRate, ["average heart rate", "durchschnittliche herzfrequenz", "fréquence cardiaque moyenne",
                                 "frecuencia cardiaca media", "frecuencia cardíaca media", "frequenza cardiaca media",
                                 "gemiddelde hartslag"]),
        ]
        for (field, keys) in table { for key in keys { names[key] = field } }
        return names
    }()

    /// The field a key names, if it is one we know (case, spaces and the apostrophe's form do not matter).
    static func named(_ key: String) -> ECGHeaderField? {
        names[key.lowercased().replacingOccurrences(of: "’", with: "'").split(separator: " ").joined(separator: " ")]
    }

    /// Apple's order of the lines, for files whose keys are all unknown.
    static let appleOrder: [ECGHeaderField] = [.name, .dateOfBirth, .recordedDate, .classification, .symptoms,
                                               .softwareVersion, .device, .sampleRate, .lead, .unit]
}

/// What the values of header lines look like, whatever their key.
enum ECGValueShape {
    /// `512 hertz`, `512 Hz`, `512,000 Hertz`: a number of hertz in a plausible range.
    static func hertz(_ value: String) -> Double? {
        guard let (number, word) = numberAndWord(value) else { return nil }
        let w = word.lowercased()
        guard w.contains("hz") || ["hertz", "herz", "гц", "赫兹", "赫茲", "ヘルツ", "헤르츠"].contains(w) else { return nil }
        return number > 0 && number <= 100_000 ? number : nil
    }

    /// `72 BPM`, anywhere in the value (`Sinus Rhythm 72 BPM`): beats per minute.
    static func beatsPerMinute(_ value: String) -> Double? {
        let words = value.split(separator: " ")
        for (i, word) in words.enumerated().dropFirst() where ["bpm", "spm", "lpm", "ppm", "s/min"].contains(word.lowercased()) {
            if let n = number(String(words[i - 1])), n > 0, n < 400 { return n }
        }
        return nil
    }

    /// The factor to µV of a voltage unit (`µV` 1, `mV` 1,000, `V` 1,000,000); nil for anything else.
    static func microvoltsPer(_ unit: String) -> Double? {
        switch unit.trimmingSpaces.replacingOccurrences(of: "μ", with: "µ") {
        case "µV", "uV", "microvolts", "Mikrovolt": 1
        case "mV", "millivolts", "Millivolt": 1_000
        case "V", "volts", "Volt": 1_000_000
        default: nil
        }
    }

    /// An Apple Watch model identifier: `Watch4,4`.
    static func isWatchModel(_ value: String) -> Bool {
        guard value.hasPrefix("Watch") else { return false }
        let rest = value.dropFirst(5).split(separator: ",", omittingEmptySubsequences: false)
        return rest.count == 2 && rest.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigitCharacter) }
    }

    /// A decimal number with a point or a comma as its decimal mark.
    static func number(_ text: String) -> Double? {
        DecimalText.double(text.replacingOccurrences(of: ",", with: "."))
    }

    /// `512 hertz` → (512, "hertz"); also without the space (`512Hz`).
    private static func numberAndWord(_ value: String) -> (Double, String)? {
        let text = value.trimmingSpaces
        guard let wordStart = text.firstIndex(where: { $0.isLetter }) else { return nil }
        let numberText = text[..<wordStart].trimmingSpaces
        guard let number = number(numberText) else { return nil }
        return (number, String(text[wordStart...]).trimmingSpaces)
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String { trimmingCharacters(in: .whitespaces) }
}

import Foundation

/// The text of ECG files (`electrocardiograms/ecg_….csv`) as the Health app writes them.
package enum ECGText {
    /// Voltages as a watch prints them (three decimals), from a seeded generator.
    package static func voltageTexts(_ count: Int, seed: UInt64) -> [String] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let fraction = Double(state >> 11) / Double(1 << 53)
            return String(format: "%.3f", fraction * 2000 - 500)
        }
    }

    package static func english(recorded: String = "2020-03-15 09:41:23 -0700", classification: String = "Sinus Rhythm",
                        device: String = "Watch4,4", unit: String = "µV", extraHeader: [String] = [],
                        voltages: [String]) -> String {
        (["Name,Jane Appleseed", "Date of Birth,\"Jan 1, 1980\"", "Recorded Date,\(recorded)",
          "Classification,\(classification)", "Symptoms,", "Software Version,1.70", "Device,\"\(device)\"",
          "Sample Rate,512 hertz"] + extraHeader + [",", "Lead,Lead I", "Unit,\(unit)", ",", ","] + voltages)
            .joined(separator: "\n") + "\n"
    }

    /// German keys, millivolts with decimal commas (quoted, as the files write them), CRLF, BOM.
    package static func german(voltages: [String]) -> String {
        "\u{FEFF}" + (["Name,Max Mustermann", "Geburtsdatum,01.01.1980", "Aufnahmedatum,2020-03-16 10:00:00 +0100",
                       "Klassifizierung,Sinusrhythmus", "Symptome,Schwindel", "Softwareversion,1.70",
                       "Gerät,\"Watch5,1\"", "Abtastrate,\"512,000 Hertz\"", ",", "Ableitung,Ableitung I", "Einheit,mV", ",", ","]
            + voltages.map { "\"\($0.replacingOccurrences(of: ".", with: ","))\"" }).joined(separator: "\r\n") + "\r\n"
    }
}

import HealthCore
import HealthIngest
import HealthStore

/// An import adds to a store only the export of the person the store holds (issue 44): the
/// export's `Me` (date of birth, biological sex, blood type) against the store's profile. A
/// characteristic set on both sides and different means another person: refused (65) before
/// anything is read or written, saying what differs and what to do. One set on one side only
/// is a fact the person set (or cleared) later: not refused, and said in the run summary.
enum SamePerson {
    struct Fact {
        let name: String
        let stored: String?
        let exported: String?
        var shown: (String?) -> String? = { $0 }
    }

    /// What the `Me` comparison found: notes for the summary, and whether any characteristic
    /// was set on both sides (else the devices decide, `checkDevices`).
    struct Outcome { var notes: [String] = []; var decided = false }

    /// Throws when the export is someone else's.
    static func check(export person: ExportPerson?, store profile: StoredProfile?, input: String, out: String) throws -> Outcome {
        guard let person, let profile else { return Outcome() }
        let facts = [
            Fact(name: "date of birth", stored: ExportPerson.set(profile.dateOfBirth?.iso8601), exported: person.dateOfBirth),
            Fact(name: "sex", stored: ExportPerson.set(profile.biologicalSex), exported: person.biologicalSex,
                 shown: { $0.map { String($0.dropFirst("HKBiologicalSex".count)).lowercased() } }),
            Fact(name: "blood type", stored: ExportPerson.set(profile.bloodType), exported: person.bloodType,
                 shown: { $0.map(bloodType) }),
        ]
        let differing = facts.filter { $0.stored != nil && $0.exported != nil && $0.stored != $0.exported }
        guard differing.isEmpty else {
            let said = differing.map { "\($0.name) \($0.shown($0.exported)!)" }.joined(separator: ", ")
            let held = differing.map { "\($0.name) \($0.shown($0.stored)!)" }.joined(separator: ", ")
            throw HealthETLError.dataUnusable("""
                \(input) is another person's export: its Me says \(said), but the store in \(out) is of a person with \
                \(held). Nothing was changed. To keep both, import it with --person ID (each person a folder of their \
                own) or into another --out; to replace this store with it, run again with --full.
                """)
        }
        let notes = facts.compactMap { fact -> String? in
            switch (fact.stored, fact.exported) {
            case (nil, let now?): "\(fact.name) set since the last import (\(fact.shown(now)!)): the same person, a fact added"
            case (let was?, nil): "\(fact.name) no longer in the export (was \(fact.shown(was)!)): the same person, a fact cleared"
            default: nil
            }
        }
        return Outcome(notes: notes, decided: facts.contains { $0.stored != nil && $0.exported != nil })
    }

    /// When `Me` says nothing on both sides: the person's own Apple devices. Exports are
    /// cumulative, so a later export of the same person still holds the records of the devices
    /// the store knows ("Alex’s iPhone"); an export whose records name Apple devices, none of
    /// which the store knows, is another person's. Read from the loaded delta, before anything
    /// is merged or published.
    static func checkDevices(stored: Set<String>, exported: Set<String>, input: String, out: String) throws {
        guard !stored.isEmpty, !exported.isEmpty, stored.isDisjoint(with: exported) else { return }
        let list = { (names: Set<String>) in names.sorted().prefix(3).joined(separator: ", ") }
        throw HealthETLError.dataUnusable("""
            \(input) is another person's export: its records come from \(list(exported)), none of the devices of the \
            store in \(out) (\(list(stored))), and neither export says a date of birth, sex or blood type to compare. \
            Nothing was changed. To keep both, import it with --person ID (each person a folder of their own) or into \
            another --out; to replace this store with it, run again with --full.
            """)
    }

    /// `HKBloodTypeAPositive` → `A+`.
    static func bloodType(_ raw: String) -> String {
        var text = String(raw.dropFirst("HKBloodType".count))
        for (word, sign) in [("Positive", "+"), ("Negative", "-")] where text.hasSuffix(word) {
            text = String(text.dropLast(word.count)) + sign
        }
        return text
    }
}

import Foundation
import HealthCore
import HealthDataset
import HealthOutputs
import HealthPipeline
import PrivateFiles

/// The people of one output folder: each under `OUT/people/ID/`, with their own store, files,
/// anchors, lock, checkpoints (an output folder of their own, as `OutputFolder` knows it) and
/// their settings in `person.json`. An output folder without `people/` is a one-person folder
/// as before; the two can live side by side.
public struct People: Sendable {
    /// The output folder (`--out`).
    public let root: String

    public init(root: String) { self.root = root }

    public var folder: String { (root as NSString).appendingPathComponent("people") }

    /// The person's own output folder, `OUT/people/ID`.
    public func outputFolder(of id: PersonID) -> OutputFolder {
        OutputFolder(path: (folder as NSString).appendingPathComponent(id.rawValue), layout: OutputRegistry.standard.layout)
    }

    func settingsPath(of id: PersonID) -> String {
        (outputFolder(of: id).path as NSString).appendingPathComponent("person.json")
    }

    /// Everyone with a folder, by id (a folder whose name is no valid id is not a person's).
    public func ids() -> [PersonID] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { name in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(name), isDirectory: &isFolder),
                  isFolder.boolValue else { return nil }
            return try? PersonID(name)
        }.sorted()
    }

    public func exists(_ id: PersonID) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: outputFolder(of: id).path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// The person's settings (all unset for a person who has none yet).
    public func settings(of id: PersonID) throws -> PersonSettings {
        let path = settingsPath(of: id)
        guard let data = FileManager.default.contents(atPath: path) else { return PersonSettings() }
        do {
            return try JSONDecoder().decode(PersonSettings.self, from: data)
        } catch {
            throw HealthETLError.dataUnusable("\(path): not a valid person file (\(error))")
        }
    }

    /// Creates the person's folder (0700) if needed and returns it.
    @discardableResult
    public func create(_ id: PersonID, settings: PersonSettings = PersonSettings()) throws -> OutputFolder {
        let output = outputFolder(of: id)
        try output.prepare()
        if settings != PersonSettings() || FileManager.default.contents(atPath: settingsPath(of: id)) == nil {
            try save(settings, of: id)
        }
        return output
    }

    /// Sets the given fields (nil leaves a field as it is), creating the person if needed.
    @discardableResult
    public func update(_ id: PersonID, name: String? = nil, birthDate: String? = nil, timezone: String? = nil,
                       sourcePriority: [String]? = nil, units: String? = nil, maxHeartRate: Double? = nil,
                       platformPriority: [String: String]? = nil) throws -> PersonSettings {
        var settings = exists(id) ? try self.settings(of: id) : PersonSettings()
        if let name { settings.name = name }
        if let birthDate { settings.birthDate = birthDate }
        if let timezone { settings.timezone = timezone }
        if let sourcePriority { settings.sourcePriority = sourcePriority }
        if let units { settings.units = units }
        if let maxHeartRate { settings.maxHeartRate = maxHeartRate }
        if let platformPriority { settings.platformPriority = platformPriority.merging(settings.platformPriority ?? [:]) { new, _ in new } }
        settings = try settings.validated()
        let isNew = !exists(id)
        do {
            try outputFolder(of: id).prepare()
            try save(settings, of: id)
        } catch {
            // A new person whose settings could not be written is not created at all.
            if isNew { try? FileManager.default.removeItem(atPath: outputFolder(of: id).path) }
            throw error
        }
        return settings
    }

    private func save(_ settings: PersonSettings, of id: PersonID) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let text = String(decoding: try encoder.encode(settings), as: UTF8.self) + "\n"
        try AtomicFile.write(text, to: settingsPath(of: id))
    }

    /// Every file and folder of the person, as `remove` would erase them (for the dry run).
    public func files(of id: PersonID) -> [String] {
        let base = outputFolder(of: id).path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        return [base] + walker.compactMap { ($0 as? String).map { (base as NSString).appendingPathComponent($0) } }.sorted()
    }

    /// Erases every file of the person, and nothing of anyone else. Takes the person's lock
    /// first, so a running import of theirs makes this fail with 75 instead of racing it.
    public func remove(_ id: PersonID) throws {
        let output = outputFolder(of: id)
        guard exists(id) else { throw HealthETLError.inputMissing("no person '\(id)' in \(root)") }
        // The lock lives inside the folder being removed: held while the tree goes, released
        // (and its file gone with the folder) at the end.
        try output.prepare()
        let lock = try RunLock(folder: output)
        // The folder and the dataset partitions renamed aside together, then deleted: a reader
        // never sees a half-removed person, and a failure half-way puts back what had moved.
        let aside = (folder as NSString).appendingPathComponent(".removing-\(id.rawValue)-\(getpid())")
        do {
            try withExtendedLifetime(lock) {
                try AsideRemoval.remove([output.path] + datasetPartitions(of: id), aside: aside)
            }
        } catch let error as FileError {
            throw HealthETLError.io(error.description)
        }
    }
}

import Foundation
import HealthCore

/// Issue 46: health data is never written through a symbolic link planted in the output tree.
/// A `report/`, `csv/`, `parquet/`, `.healthetl/`, `people/ID/` or `dataset/…` replaced by a
/// link to another folder would have had the report, the CSV files, the lock and the staged
/// store written there (and that folder set to 0700). Every folder of the tree is checked with
/// `lstat` before a run creates or locks anything, and each folder a publication moves into
/// just before the move; a link is refused (73), naming it and where it points, and nothing is
/// written. The folder given as `--out` may itself be a link (the person chose it). The tree is
/// 0700, so between a check and a write only its owner could plant one.
extension OutputFolder {
    /// The folders of an output folder that a run writes (besides `people/` and `dataset/`):
    /// its state folder and what its outputs publish (a file among them is checked too: a
    /// publication renames over a link, but nothing is written through one).
    var ownFolders: [String] { [".healthetl"] + layout.published }

    /// The family folder of a person's folder (`OUT` of `OUT/people/ID`), else the folder itself.
    var treeRoot: String {
        let parent = PathText.parent(of: path)
        return (parent as NSString).lastPathComponent == "people" ? PathText.parent(of: parent) : path
    }

    /// Throws 73 naming the first folder of the tree that is a symbolic link.
    package func refusePlantedLinks() throws {
        if let link = Self.firstLink(in: treeRoot, ownFolders: ownFolders) { throw Self.refusal(link) }
    }

    /// Throws 73 when a folder on the way from the tree's root to `target` (the root left out,
    /// `target`'s own folder included) is a symbolic link.
    func refuseLinks(onTheWayTo target: String) throws {
        let root = treeRoot
        var folder = PathText.parent(of: target)
        while folder.count > root.count && folder.hasPrefix(root + "/") {
            if Self.isLink(folder) { throw Self.refusal(folder) }
            folder = PathText.parent(of: folder)
        }
    }

    static func refusal(_ link: String) -> HealthETLError {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: link)).map { " (to \($0))" } ?? ""
        return .cannotCreateOutput("\(link) is a symbolic link\(target): health data is never written through a link; "
                                   + "remove the link (the outputs are written there again) or choose another --out")
    }

    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// The first link among the folders a run writes under `root`: its own folders, each
    /// person's folder and theirs, and the dataset's table and partition folders.
    static func firstLink(in root: String, ownFolders: [String]) -> String? {
        func child(_ folder: String, _ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        func entries(_ folder: String) -> [String] {
            isLink(folder) ? [] : ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { child(folder, $0) }
        }
        for name in ownFolders + ["people", "dataset"] where isLink(child(root, name)) { return child(root, name) }
        for person in entries(child(root, "people")) {
            if isLink(person) { return person }
            if let link = ownFolders.map({ child(person, $0) }).first(where: isLink) { return link }
        }
        for table in entries(child(root, "dataset")) {
            if isLink(table) { return table }
            if let link = entries(table).first(where: isLink) { return link }
        }
        return nil
    }
}

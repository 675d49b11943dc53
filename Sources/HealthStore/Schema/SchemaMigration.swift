import SQLite

/// One step of `StoreSchema.upgrade`, in the manner of GRDB's `DatabaseMigrator`: `step`
/// takes a store of version `version - 1` to `version`, the value `PRAGMA user_version` then
/// holds.
package struct SchemaMigration: Sendable {
    package let version: Int
    package let step: @Sendable (Database) throws -> Void

    package init(version: Int, step: @escaping @Sendable (Database) throws -> Void) {
        self.version = version
        self.step = step
    }

    /// What is wrong with `steps` as the way from `oldest` to `newest`, nil if nothing: the
    /// first step brings a store of `oldest` one version on, each next step one more, and the
    /// last reaches `newest`. A gap would leave a version's tables out of every store upgraded
    /// past it; steps out of order would run one on a store it was not written for.
    package static func problem(in steps: [SchemaMigration], from oldest: Int, to newest: Int) -> String? {
        var expected = oldest + 1
        for step in steps {
            guard step.version == expected else {
                return "the step to version \(step.version) comes where the step to \(expected) belongs"
            }
            expected += 1
        }
        return expected - 1 == newest ? nil : "the steps end at version \(expected - 1), not at \(newest)"
    }
}

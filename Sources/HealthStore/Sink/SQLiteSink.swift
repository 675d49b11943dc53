import HealthCore
@_spi(Load) import HealthDedupe   // the identity set, inlined into `write`
import PrivateFiles
import SQLite

/// The load stage, the import's last thread (read → ingest → normalize + identity → load;
/// "emit" is HealthEmit's, the files): bulk-loads normalized batches into a fresh store with
/// prepared statements in large transactions, then indexes and derives what needs the whole
/// data set. It writes to a file nobody reads yet; publishing is the caller's job.
///
/// Exact duplicates are dropped as they arrive, by a set of the identities written
/// (HealthDedupe's `BoundedIdentitySet`, `ExactCopies/`: 8-byte hashes in a table of at most
/// 8 MB, older ones in sorted runs on disk behind a Bloom filter of 2 bytes an identity): far
/// cheaper than an index on identity plus a pass to delete the extra copies after the load.
///
/// Each dropped copy is counted by the record it copies (`duplicate_copies`, written with each
/// commit): the reconciliation's `duplicates_dropped` per day and metric.
///
/// Each `commit(checkpoint:)` makes everything written so far durable together with the
/// caller's checkpoint (one row in the same transaction), so a killed load resumes from a
/// state that matches its data exactly (`init(resuming:)`): a copy read before the last
/// commit is in `duplicate_copies`, one read after it is read again and counted then.
package final class SQLiteSink {
    package struct Counts: Codable, Sendable, Equatable {
        package var samplesWritten = 0
        package var duplicatesDropped = 0
        package var quarantined = 0
        package var workouts = 0
        package var routePoints = 0
        package var correlations = 0
        /// Samples created after the export was made (its `ExportDate`, or now): kept, but they
        /// do not move their anchor (a record dated 2030 would hide every later record).
        package var futureDated = 0
        /// ECG recordings written (one already in the store is not written again).
        package var ecgRecordings = 0
        package init() {}

        enum CodingKeys: String, CodingKey {
            case samplesWritten, duplicatesDropped, quarantined, workouts, routePoints, correlations, futureDated
            case ecgRecordings
        }

        // A checkpoint written before `futureDated` existed still resumes.
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            samplesWritten = try c.decode(Int.self, forKey: .samplesWritten)
            duplicatesDropped = try c.decode(Int.self, forKey: .duplicatesDropped)
            quarantined = try c.decode(Int.self, forKey: .quarantined)
            workouts = try c.decode(Int.self, forKey: .workouts)
            routePoints = try c.decode(Int.self, forKey: .routePoints)
            correlations = try c.decode(Int.self, forKey: .correlations)
            futureDated = try c.decodeIfPresent(Int.self, forKey: .futureDated) ?? 0
            ecgRecordings = try c.decodeIfPresent(Int.self, forKey: .ecgRecordings) ?? 0
        }
    }

    package let database: Database
    private var counts = Counts()
    private var typeIDs: [String: Int64] = [:]
    /// The sources of `platform` (a source is its name, version and device on one platform).
    private var sourceIDs: [SourceInfo: Int64] = [:]
    /// The other platforms' sources, while a `CombinedInput` reads another's export.
    private var otherPlatformsSourceIDs: [InputPlatform: [SourceInfo: Int64]] = [:]
    /// The platform of the records written now (`sources.platform`): the run's input's, set
    /// before the first batch, or the one a batch of a `CombinedInput` names.
    package var platform: InputPlatform = .appleHealth {
        didSet { if oldValue != platform { swapSources(from: oldValue) } }
    }

    private func swapSources(from old: InputPlatform) {
        otherPlatformsSourceIDs[old] = sourceIDs
        sourceIDs = otherPlatformsSourceIDs.removeValue(forKey: platform) ?? [:]
        lastSource = (SourceInfo(name: ""), -1)
    }
    /// The last type and source looked up (id -1: none yet). Not optionals: comparing an
    /// optional with a sample's field wraps (copies) the field, a retain and a release.
    private var lastType: (name: String, id: Int64) = ("", -1)
    private var lastSource: (source: SourceInfo, id: Int64) = (SourceInfo(name: ""), -1)
    private var seenWorkouts: Set<Int64> = []
    private var seenCorrelations: Set<UInt64> = []
    private var seenSamples: BoundedIdentitySet
    /// The copies dropped since the last commit, by the identity of the record they copy. Touched
    /// only on a duplicate (rare), never for an ordinary record.
    private var droppedCopies: [UInt64: (type: Int64, localDay: Int64, copies: Int64)] = [:]
    private var metadataJSON = JSONObjectWriter()
    /// The metadata `metadataJSON` was last written from, and whether it had entries: the
    /// samples of a series often carry the same entries (a heart rate's motion context), and
    /// comparing them (interned keys, short values) costs less than writing the JSON again.
    private var lastMetadata: [MetadataEntry] = []
    private var lastMetadataHasJSON = false
    private var anchors = NewestCreation()
    /// Anchors never move past this instant (µs): the export's `ExportDate` once it is read,
    /// now until then (see `AnchorCeiling`).
    private var anchorCeiling = AnchorCeiling.now
    /// The routes that name each GPX file (Apple reuses a name: two routes, one file), and each
    /// route's time span in µs, which decides whose the file's points are.
    private var routeIDs: [String: [Int64]] = [:]
    private var routeSpans: [Int64: ClosedRange<Int64>] = [:]
    private var openRouteFile: OpenRouteFile?
    private let runID: Int64
    private let insertSample, insertHeartbeat, insertType, insertSource, insertQuarantine: Statement
    /// `rowsPerInsert` sample rows in one statement: the per-statement work (step, cursor,
    /// halt, reset) is paid once for all of them. Batch ends use `insertSample`.
    private let insertSamples: Statement
    private static let rowsPerInsert = 16
    private static let sampleColumns = 15
    /// The samples of the current batch bound for the next insert: index in the batch, type
    /// and source ids.
    private var pending: [(index: Int, type: Int64, source: Int64)] = []
    private let insertRoutePoint: Statement
    /// Gets a copy of every sample row inserted (a full load, so that the analytics can read
    /// the series while the store is indexed); nil: none, or dropped after a failed write.
    package var sampleRuns: SampleRunWriter?
    /// The `HKTimeZone` of every sleep sample inserted while `sampleRuns` is set (a full load),
    /// with its start: the zone timeline's evidence (`ZoneStore.evidence` reads the same from
    /// the store, once it is indexed), gathered here so that the timeline is known before the
    /// analytics that ride along the index build start. Sleep records are a few per night.
    package private(set) var sleepZoneEvidence: [ZoneEvidence] = []
    /// The sleep type's id, once a sleep sample came (-1: none yet).
    private var sleepTypeID: Int64 = -1
    /// SQLite's page cache during the load (KiB), and from the index build on (see `finish`).
    /// The load appends rows to tables without indexes, so each page is written once and few
    /// are read again: 8 MiB instead of 32 cost no CPU (paired runs, one year: 0.97) and took
    /// 23 MiB off the peak, which the load sets (issue 62).
    static let cacheKiB = 8192
    static let afterLoadCacheKiB = 2048

    /// A new store at `path`, or (`resuming`, with the counts of its checkpoint) the store a
    /// killed load left there, picked up where its last commit ended. `expectedSamples` sizes
    /// the duplicate filter up front (growing it rehashes every identity in it, each a cache miss).
    /// `recentIdentities`: identities the duplicate filter holds in memory (tests make it small).
    /// `alreadyStored`: the workouts and correlations of the store this one's rows will be merged
    /// into (an incremental run), not written again.
    package init(path: String, runID: Int64 = 1, resuming: Counts? = nil, expectedSamples: Int = 0,
                recentIdentities: Int? = nil, alreadyStored: StoredIdentities = StoredIdentities()) throws {
        // Its runs (unlinked at once) go beside the store, like the sample runs.
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        seenSamples = BoundedIdentitySet(expected: expectedSamples, folder: folder.isEmpty ? "/" : folder,
                                         recentLimit: recentIdentities ?? BoundedIdentitySet.defaultRecentLimit)
        database = try Database(path: path, mode: resuming == nil ? .create : .readWrite)
        // A rollback journal: a killed process leaves a journal that the next open rolls back
        // to the last commit (no journal at all could leave half-written pages). The load
        // appends to new tables, so nearly every page it writes is a new page, which the
        // journal need not copy: each page is written once (a write-ahead log writes it
        // twice, to the log and at checkpoint). Exclusive locking: nobody else reads this
        // file before it is published.
        try database.execute("""
            PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL;
            PRAGMA temp_store = FILE; PRAGMA cache_size = -\(Self.cacheKiB);
            """)
        if let resuming {
            counts = resuming
            // The ExportDate was read before the kill; the profile row keeps it.
            // Staged by an earlier version: give it the tables this one writes.
            try StoreSchema.upgrade(database)
            if let text = try database.scalar("SELECT export_date_utc FROM profile WHERE id = 1").string,
               let exportDate = Timestamp(iso8601: text) {
                anchorCeiling = AnchorCeiling.of(exportDate: exportDate)
            }
        } else {
            // One transaction: each statement on its own would be a commit, with its syncs
            // (some 200 `fdatasync` calls for the schema, most of a nightly run's wall time).
            let database = database
            try database.transaction { try database.execute(StoreSchema.tables) }
        }
        self.runID = runID
        seenWorkouts = alreadyStored.workouts
        seenCorrelations = alreadyStored.correlations
        // OR FAIL, not the default ABORT: a statement of several rows that may abort half way
        // makes SQLite keep a statement journal, a copy of every page the statement touches
        // before it changes it (the table's last leaf, 4 KiB per 16 rows: some 125 MB of copying
        // for a year). A failed insert fails the whole load, whose transaction is never
        // committed, so undoing the rows before it within the statement buys nothing.
        let sampleInsert = """
            INSERT OR FAIL INTO sample_data (type_id, source_id, start_us, end_us, created_us, local_day, value, unit,
              raw_value, raw_unit, category_value, metadata, identity, line, user_entered) VALUES
            """
        let sampleValues = "(" + Array(repeating: "?", count: Self.sampleColumns).joined(separator: ",") + ")"
        insertSample = try database.prepare(sampleInsert + sampleValues)
        insertSamples = try database.prepare(
            sampleInsert + Array(repeating: sampleValues, count: Self.rowsPerInsert).joined(separator: ","))
        // `bind(_:identity:…)` binds all of a row's columns, every time.
        insertSample.rebindsEveryRun = true
        insertSamples.rebindsEveryRun = true
        pending.reserveCapacity(Self.rowsPerInsert)
        insertHeartbeat = try database.prepare("INSERT INTO heartbeat_data (sample_id, time_us, bpm) VALUES (?,?,?)")
        insertType = try database.prepare("INSERT INTO types (identifier) VALUES (?)")
        insertSource = try database.prepare("""
            INSERT INTO sources (name, version, device, device_model, device_hardware, platform) VALUES (?,?,?,?,?,?)
            """)
        insertQuarantine = try database.prepare(
            "INSERT INTO quarantine (run_id, line, element, type, reason) VALUES (?,?,?,?,?)")
        insertRoutePoint = try database.prepare("""
            INSERT INTO workout_route_points (route_id, time_utc, latitude, longitude, altitude,
              horizontal_accuracy, vertical_accuracy, course, speed) VALUES (?,?,?,?,?,?,?,?,?)
            """)
        if resuming != nil { try reloadLookups() }
        try database.execute("BEGIN")
    }

    /// The in-memory lookups of a resumed load, read back from what it committed.
    private func reloadLookups() throws {
        for row in try database.rows("SELECT id, identifier FROM types") {
            if let id = row[0].int, let name = row[1].string { typeIDs[name] = id }
        }
        sleepTypeID = typeIDs[QualityStore.sleep] ?? -1
        for row in try database.rows("SELECT id, name, version, device, platform FROM sources") {
            guard let id = row[0].int else { continue }
            let source = SourceInfo(name: row[1].string ?? "", version: row[2].string, device: row[3].string)
            let of = row[4].string.flatMap(InputPlatform.init(rawValue:)) ?? .appleHealth
            if of == platform { sourceIDs[source] = id } else { otherPlatformsSourceIDs[of, default: [:]][source] = id }
        }
        let samples = try database.prepare("SELECT identity FROM sample_data")
        seenSamples = seenSamples.emptied(expecting: max(counts.samplesWritten, seenSamples.expected))
        while try samples.step() { _ = try seenSamples.insert(UInt64(bitPattern: samples.int64(0))) }
        let written = try StoredIdentities.read(from: database)
        seenWorkouts.formUnion(written.workouts)
        seenCorrelations.formUnion(written.correlations)
        for row in try database.rows("SELECT file_path, id, start_utc, end_utc FROM workout_routes WHERE file_path IS NOT NULL ORDER BY id") {
            guard let path = row[0].string, let id = row[1].int else { continue }
            noteRoute(path: path, id: id, start: row[2].string.flatMap(Timestamp.init(iso8601:)),
                      end: row[3].string.flatMap(Timestamp.init(iso8601:)))
        }
    }

    /// What has been written so far.
    package var writtenCounts: Counts { counts }

    /// Route files the workouts written so far reference, in order.
    package func routeFilePaths() throws -> [String] {
        try database.rows("SELECT file_path FROM workout_routes WHERE file_path IS NOT NULL ORDER BY id").compactMap { $0[0].string }
    }

    /// Commits everything written so far together with `checkpoint` (the caller's state,
    /// opaque here), and opens the next transaction.
    package func commit(checkpoint: String) throws {
        try saveAnchors()
        try saveDroppedCopies()
        try saveCheckpoint(checkpoint)
        try database.execute("COMMIT; BEGIN")
        FaultInjection.checkpointCommitted()
    }

    /// Raises the stored anchors to the newest creation instants written since the last
    /// commit. An upsert with `max`, so a resumed load needs nothing read back.
    private func saveAnchors() throws {
        let pairs = anchors.take()
        guard !pairs.isEmpty else { return }
        let upsert = try database.prepare("""
            INSERT INTO anchors (type, source_name, newest_creation_us)
              SELECT t.identifier, s.name, ?3 FROM types t, sources s WHERE t.id = ?1 AND s.id = ?2
            ON CONFLICT (type, source_name) DO UPDATE
              SET newest_creation_us = max(newest_creation_us, excluded.newest_creation_us)
            """)
        for (pair, newest) in pairs {
            upsert.bind(1, pair.type)
            upsert.bind(2, pair.source)
            upsert.bind(3, newest)
            try upsert.run()
        }
    }

    private func saveCheckpoint(_ checkpoint: String) throws {
        try database.rows("INSERT OR REPLACE INTO load_checkpoint (id, state) VALUES (1, ?)", [.text(checkpoint)])
    }

    /// The checkpoint committed last in the store at `path`; nil if there is none or the file
    /// is not a store this program wrote.
    /// The checkpoint of a staged store; `damaged` when the file is not sound (SQLite's
    /// quick check, after the open has rolled back what a killed run left half-written).
    package static func checkpoint(at path: String) -> (state: String?, damaged: String?) {
        guard let db = try? Database(path: path, mode: .readWrite),
              (try? db.execute("PRAGMA locking_mode = EXCLUSIVE")) != nil else { return (nil, "cannot be opened") }
        if let problem = StoreCheck.problem(in: db) { return (nil, problem) }
        guard let rows = try? db.rows("SELECT state FROM load_checkpoint WHERE id = 1") else { return (nil, nil) }
        return (rows.first?[0].string, nil)
    }

    package func write(_ batch: consuming NormalizedBatch) throws {
        if let platform = batch.rest.platform { self.platform = platform }
        guard batch.identities.count == batch.samples.count else {
            throw HealthETLError.internal("a batch reached the store without its samples' identities")
        }
        // The ExportDate comes first in an export, in the batch of the first records.
        if let exportDate = batch.rest.exportDate { anchorCeiling = AnchorCeiling.of(exportDate: exportDate) }
        // Each sample is read in place: passed as a plain argument, an element of the array
        // is copied whole first (a dozen reference counts touched).
        let identities = batch.identities
        try batch.samples.withUnsafeMutableBufferPointer { samples in
            for i in samples.indices {
                if i % IdentitySet.prefetchGroup == 0 {
                    identities.withUnsafeBufferPointer {
                        seenSamples.prefetch(UnsafeBufferPointer(rebasing: $0[i..<min(i + IdentitySet.prefetchGroup, $0.count)]))
                    }
                }
                guard try seenSamples.insert(identities[i]) else {
                    try dropped(&samples[i], identity: identities[i])
                    continue
                }
                // The type and source are compared with the last ones in place: handed to
                // `typeID` and `sourceID` as arguments, they were copied out of the buffer
                // first, their texts retained and released (issue 62).
                let sample = samples.baseAddress! + i
                let type = lastType.id >= 0 && lastType.name == sample.pointee.record.type
                    ? lastType.id : try typeID(sample.pointee.record.type)
                let source = lastSource.id >= 0 && lastSource.source == sample.pointee.record.source
                    ? lastSource.id : try sourceID(sample.pointee.record.source)
                pending.append((i, type, source))
                if pending.count == Self.rowsPerInsert { try insertPending(samples, identities) }
            }
            try insertPending(samples, identities)
        }
        for entry in batch.quarantine { try quarantine(entry) }
        for workout in batch.workouts { try write(workout) }
        try writeRest(batch.rest)
    }

    /// A copy of a record already written: counted, not stored.
    @inline(never)
    private func dropped(_ s: inout Sample, identity: UInt64) throws {
        counts.duplicatesDropped += 1
        if droppedCopies[identity] != nil {
            droppedCopies[identity]!.copies += 1
        } else {
            droppedCopies[identity] = (try typeID(s.record.type), Int64(s.localDate.daysSinceEpoch), 1)
        }
    }

    /// Adds the copies dropped since the last commit to `duplicate_copies` (in the commit's
    /// transaction; in identity order, the table's key).
    private func saveDroppedCopies() throws {
        guard !droppedCopies.isEmpty else { return }
        let upsert = try database.prepare("""
            INSERT INTO duplicate_copies (identity, type_id, local_day, copies) VALUES (?, ?, ?, ?)
            ON CONFLICT (identity) DO UPDATE SET copies = copies + excluded.copies
            """)
        for (identity, copy) in droppedCopies.sorted(by: { Int64(bitPattern: $0.key) < Int64(bitPattern: $1.key) }) {
            upsert.bind(1, Int64(bitPattern: identity))
            upsert.bind(2, copy.type)
            upsert.bind(3, copy.localDay)
            upsert.bind(4, copy.copies)
            try upsert.run()
        }
        droppedCopies.removeAll(keepingCapacity: true)
    }

    /// Inserts the pending samples: all in one statement if there are `rowsPerInsert`, else
    /// one by one. Their row ids follow each other: SQLite gives a new row the largest id + 1.
    private func insertPending(_ samples: UnsafeMutableBufferPointer<Sample>, _ identities: [UInt64]) throws {
        defer { pending.removeAll(keepingCapacity: true) }
        if pending.count == Self.rowsPerInsert {
            for (row, p) in pending.enumerated() {
                bind(&samples[p.index], identity: identities[p.index], type: p.type, source: p.source, to: insertSamples,
                     at: Int32(row * Self.sampleColumns))
            }
            try insertSamples.run()
            let first = database.lastInsertRowID - Int64(pending.count) + 1
            for (row, p) in pending.enumerated() {
                try inserted(&samples[p.index], id: first + Int64(row), type: p.type, source: p.source)
            }
        } else {
            for p in pending {
                bind(&samples[p.index], identity: identities[p.index], type: p.type, source: p.source, to: insertSample, at: 0)
                try insertSample.run()
                try inserted(&samples[p.index], id: database.lastInsertRowID, type: p.type, source: p.source)
            }
        }
    }

    /// Binds one sample row to parameters `offset + 1 …` of `stmt`.
    private func bind(_ s: inout Sample, identity: UInt64, type: Int64, source: Int64, to stmt: Statement, at offset: Int32) {
        stmt.bind(offset + 1, type)
        stmt.bind(offset + 2, source)
        stmt.bind(offset + 3, s.start.microseconds)
        stmt.bind(offset + 4, s.end.microseconds)
        stmt.bind(offset + 5, s.record.creationDate?.microseconds)
        stmt.bind(offset + 6, Int64(s.localDate.daysSinceEpoch))
        stmt.bind(offset + 7, s.value)
        stmt.bind(offset + 8, staged: s.unit)
        stmt.bind(offset + 9, staged: s.record.value)
        stmt.bind(offset + 10, staged: s.record.unit)
        stmt.bind(offset + 11, staged: s.categoryValue)
        if s.record.metadata != lastMetadata {
            lastMetadataHasJSON = metadataJSON.write(s.record.metadata)
            lastMetadata = s.record.metadata
        }
        if lastMetadataHasJSON {
            metadataJSON.bytes.withUnsafeBytes { stmt.bind(offset + 12, stagedUTF8: $0) }
        } else {
            stmt.bind(offset + 12, nil as String?)
        }
        stmt.bind(offset + 13, Int64(bitPattern: identity))
        stmt.bind(offset + 14, Int64(s.record.line))
        stmt.bind(offset + 15, Int64(s.userEntered ? 1 : 0))
    }

    /// What follows a sample's insert: its anchor, its copy for the runs, its heartbeats.
    private func inserted(_ s: inout Sample, id: Int64, type: Int64, source: Int64) throws {
        counts.samplesWritten += 1
        if let created = s.record.creationDate?.microseconds {
            if created <= anchorCeiling { anchors.note(created, type: type, source: source) } else { counts.futureDated += 1 }
        }
        if let runs = sampleRuns {
            if type == sleepTypeID, let zone = s.record.metadata.first(where: { $0.key == ZoneStore.metadataKey }) {
                sleepZoneEvidence.append(ZoneEvidence(instant: s.start, zone: zone.value))
            }
            do {
                try runs.append(type: type, rowID: id, source: source, start: s.start.microseconds, end: s.end.microseconds,
                                created: s.record.creationDate?.microseconds, localDay: s.localDate.daysSinceEpoch,
                                value: s.value, unit: s.unit, rawValue: s.record.value, rawUnit: s.record.unit,
                                categoryValue: s.categoryValue, userEntered: s.userEntered)
            } catch {
                // The runs only save time (e.g. the disk filled up): the analytics read the store instead.
                sampleRuns = nil
            }
        }
        for beat in s.record.heartbeats {
            insertHeartbeat.bind(1, id)
            insertHeartbeat.bind(2, beat.time?.microseconds)
            insertHeartbeat.bind(3, beat.bpm)
            try insertHeartbeat.run()
        }
    }

    func quarantine(_ entry: QuarantineEntry) throws {
        insertQuarantine.bind(1, runID)
        insertQuarantine.bind(2, Int64(entry.line))
        insertQuarantine.bind(3, entry.element)
        insertQuarantine.bind(4, entry.type)
        insertQuarantine.bind(5, entry.reason)
        try insertQuarantine.run()
        counts.quarantined += 1
    }

    func typeID(_ identifier: String) throws -> Int64 {
        // Records come type by type: compare with the last one before hashing the name.
        if lastType.id >= 0 && lastType.name == identifier { return lastType.id }
        if let id = typeIDs[identifier] { lastType = (identifier, id); return id }
        insertType.bind(1, identifier)
        try insertType.run()
        let id = database.lastInsertRowID
        typeIDs[identifier] = id
        lastType = (identifier, id)
        if identifier == QualityStore.sleep { sleepTypeID = id }
        return id
    }

    func sourceID(_ source: SourceInfo) throws -> Int64 {
        if lastSource.id >= 0 && lastSource.source == source { return lastSource.id }
        if let id = sourceIDs[source] { lastSource = (source, id); return id }
        insertSource.bind(1, source.name)
        insertSource.bind(2, source.version)
        insertSource.bind(3, source.device)
        insertSource.bind(4, source.deviceModel)
        insertSource.bind(5, source.deviceHardware)
        insertSource.bind(6, platform.rawValue)
        try insertSource.run()
        let id = database.lastInsertRowID
        sourceIDs[source] = id
        lastSource = (source, id)
        return id
    }

    /// Indexes and derives; commits. Returns what was written.
    ///
    /// `reading` (if given) is committed first, with everything loaded: the input is read.
    /// `checkpoint` is committed with the result.
    package func finish(reading: String? = nil, checkpoint: (Counts) -> String? = { _ in nil }) throws -> Counts {
        try saveAnchors()
        try saveDroppedCopies()
        if let reading { try saveCheckpoint(reading) }
        try database.execute("COMMIT; BEGIN")
        if reading != nil { FaultInjection.checkpointCommitted() }
        seenSamples = seenSamples.emptied(expecting: 0)
        // SQLite's sorter holds as many bytes as the page cache may (`cache_size`) before it
        // writes a sorted run: 32 MB of cache and 32 MB of sorter while the largest index is
        // built, the peak RSS of a 4-year import. Appending an index in key order needs few
        // pages cached, merging smaller runs costs little, and what reads the store after
        // the load (the outputs) scans tables in order (issue 35). 2 MiB instead of 8 took
        // 15 MiB off a 4-year import's peak, which the index build sets once the load's cache
        // is small, at no CPU (paired, 0.94; issue 62).
        try database.execute("PRAGMA cache_size = -\(Self.afterLoadCacheKiB)")
        FreedMemory.returnToSystem()
        try database.execute(StoreSchema.indexes)
        try database.execute(StoreSchema.views)
        try deriveWorkoutHeartRates()
        try database.execute("""
            UPDATE workout_routes SET point_count =
              (SELECT count(*) FROM workout_route_points p WHERE p.route_id = workout_routes.id);
            """)
        let state = checkpoint(counts)
        if let state { try saveCheckpoint(state) }
        try database.execute("COMMIT")
        if state != nil { FaultInjection.checkpointCommitted() }
        return counts
    }

    /// Workouts without heart-rate statistics (before iOS 16) get them from the samples.
    private func deriveWorkoutHeartRates() throws {
        guard let hr = typeIDs[DerivedWorkoutHeartRates.heartRateType] else { return }
        try DerivedWorkoutHeartRates.derive(in: database, heartRate: hr)
    }

    /// Route points from GPX files: attached to the route that references the file; a file two
    /// routes name, to the one whose time span holds most of its points (the other route keeps
    /// none, and `workout_details` says so). A file comes in parts (`RouteFile.partPoints`): its
    /// points are written to the first route as they come, each route's share is tallied, and
    /// the last part moves them to the owner if that is another route (or removes them, when
    /// the file broke half-way).
    func writeRouteFile(_ file: RouteFile) throws {
        guard let routes = routeIDs[file.path], let first = routes.first else { return }
        var open = openRouteFile?.path == file.path ? openRouteFile! : OpenRouteFile(path: file.path, firstRow: nil, written: 0, inside: [:])
        if open.firstRow == nil, !file.points.isEmpty {
            open.firstRow = try database.scalar("SELECT coalesce(max(rowid), 0) + 1 FROM workout_route_points").int ?? 1
        }
        if routes.count > 1 {
            for route in routes {
                guard let span = routeSpans[route] else { continue }
                open.inside[route, default: 0] += file.points.reduce(0) { $0 + ($1.time.map { span.contains($0.microseconds) } == true ? 1 : 0) }
            }
        }
        try writePoints(file.points, route: first)
        open.written += file.points.count
        guard file.isLast else { openRouteFile = open; return }
        openRouteFile = nil
        guard let firstRow = open.firstRow else { return }
        if file.abandoned {
            _ = try database.rows("DELETE FROM workout_route_points WHERE rowid >= ? AND route_id = ?", [.integer(firstRow), .integer(first)])
            counts.routePoints -= open.written
            return
        }
        // The first route with the most points inside its span, as when the file was read whole.
        var owner = first, best = -1
        for route in routes where routes.count > 1 {
            let inside = open.inside[route] ?? 0
            if inside > best { (owner, best) = (route, inside) }
        }
        if owner != first {
            _ = try database.rows("UPDATE workout_route_points SET route_id = ? WHERE rowid >= ? AND route_id = ?",
                                  [.integer(owner), .integer(firstRow), .integer(first)])
        }
    }

    /// The GPX file whose parts are being written.
    struct OpenRouteFile {
        var path: String
        var firstRow: Int64?
        var written: Int
        var inside: [Int64: Int]
    }

    func writePoints(_ points: [RoutePoint], route routeID: Int64) throws {
        for p in points {
            let s = insertRoutePoint
            s.bind(1, routeID); s.bind(2, p.time?.iso8601); s.bind(3, p.latitude); s.bind(4, p.longitude)
            s.bind(5, p.altitude); s.bind(6, p.horizontalAccuracy); s.bind(7, p.verticalAccuracy)
            s.bind(8, p.course); s.bind(9, p.speed)
            try s.run()
        }
        counts.routePoints += points.count
    }

    func noteRoute(path: String, id: Int64, start: Timestamp?, end: Timestamp?) {
        routeIDs[path, default: []].append(id)
        if let start, let end, start.microseconds <= end.microseconds { routeSpans[id] = start.microseconds...end.microseconds }
    }
    func firstTime(workout id: Int64) -> Bool { seenWorkouts.insert(id).inserted }
    func firstTime(correlation identity: UInt64) -> Bool { seenCorrelations.insert(identity).inserted }
    func countWorkout() { counts.workouts += 1 }
    func countECGRecording() { counts.ecgRecordings += 1 }
    func countCorrelation() { counts.correlations += 1 }
}

/// The newest creation instant per (type, source) pair written since the last `take`: what
/// the next run's anchors are made of. Samples come in long runs of one pair, so the running
/// pair is compared before anything is hashed.
struct NewestCreation {
    struct Pair: Hashable { var type: Int64; var source: Int64 }
    private var current: Pair?
    private var currentNewest = Int64.min
    private var others: [Pair: Int64] = [:]

    @inline(__always) mutating func note(_ created: Int64, type: Int64, source: Int64) {
        if let current, current.type == type, current.source == source {
            currentNewest = max(currentNewest, created)
            return
        }
        fold()
        let pair = Pair(type: type, source: source)
        current = pair
        currentNewest = max(others[pair] ?? .min, created)
    }

    private mutating func fold() {
        if let current { others[current] = currentNewest }
    }

    /// Every pair noted since the last call, with its newest instant.
    mutating func take() -> [Pair: Int64] {
        fold()
        defer { others = [:]; current = nil; currentNewest = .min }
        return others
    }
}

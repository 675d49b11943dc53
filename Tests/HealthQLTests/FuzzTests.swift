import XCTest
import HealthCore
import TestSupport
@testable import HealthQL

/// Thousands of garbage and mutated queries (fixed seed): HealthQL never crashes, and every
/// failure is a `HealthQLError` whose position lies inside the text.
final class FuzzTests: XCTestCase {
    /// TestSupport's SplitMix64 (deterministic across platforms and runs), drawn as these tests draw.
    struct Random {
        var generator: SplitMix64
        init(state: UInt64) { generator = SplitMix64(seed: state) }
        mutating func int(_ n: Int) -> Int { Int(generator.next() % UInt64(n)) }
        mutating func pick<T>(_ a: [T]) -> T { a[int(a.count)] }
    }

    static let pieces: [String] = Keyword.allCases.map(\.rawValue) + Symbol.allCases.map(\.rawValue)
        + ["steps", "heart_rate", "sleep", "workouts", "daily", "weekly", "activity", "sleep_analysis", "value", "date",
           "source", "type", "deep", "day", "hour", "week", "month", "year", "sum(", "avg(", "p90(", "count(*)", "today()",
           "now()", "start_of_week()", "7d", "12h", "3mo", "1y", "2w", "30min", "'2024-01-31'", "'deep'", "'x'", "1", "0",
           "-1", "1.5", "99999999999999999999", "1e5", "''", "'", "\"", "(", ")", "((", "#", "!", "é", "\u{0}", "\n", "--",
           "steps.date", "sleep.date + 1d", "IS NOT NULL", "NOT IN (", "99999d", "'9999-12-31'", "'0000-01-01'"]

    static let seeds: [String] = ParserTests.constructs.map(\.0) + [
        "SELECT sum(value) FROM steps WHERE date > today() - 7d GROUP BY day HAVING sum(value) > 100 ORDER BY 2 DESC LIMIT 3",
        "SELECT sleep.date, steps.value FROM sleep JOIN steps ON steps.date = sleep.date + 1d",
        "SELECT type, count(*), avg(duration) FROM workouts WHERE type IN ('running') GROUP BY type",
        "SELECT hour, p95(value) FROM heart_rate WHERE date >= '2024-03-01' GROUP BY hour",
        "SELECT month, stddev(steps) FROM daily GROUP BY month",
        "SELECT count(*) FROM sleep_analysis WHERE value = 'deep' OR value IS NULL",
    ]

    func check(_ text: String, engine: QueryEngine, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        do {
            _ = try engine.run(text, now: Date(timeIntervalSince1970: 1_710_000_000))
            return true
        } catch let error as HealthQLError {
            let length = text.count
            XCTAssertTrue((0...length).contains(error.position.offset), "\(error) in \(text.debugDescription)", file: file, line: line)
            XCTAssertGreaterThanOrEqual(error.position.line, 1, file: file, line: line)
            XCTAssertFalse(error.message.isEmpty, file: file, line: line)
            return false
        } catch {
            XCTFail("not a HealthQL error: \(error) for \(text.debugDescription)", file: file, line: line)
            return false
        }
    }

    func testTokenSoupsNeverCrash() throws {
        let engine = QueryEngine(store: try PlannerErrorTests.emptyStore(self))
        var random = Random(state: 7)
        var ran = 0
        for _ in 0..<3000 {
            let count = 1 + random.int(14)
            var words = (0..<count).map { _ in random.pick(Self.pieces) }
            // Half are soups with a query's skeleton, so some get past the parser into the planner.
            if random.int(2) == 0 {
                words = ["SELECT", random.pick(["*", "value", "date", "count(*)", "sum(value)"]), "FROM",
                         random.pick(["steps", "sleep", "workouts", "daily", "heart_rate"])] + words.prefix(random.int(6))
            }
            if check(words.joined(separator: random.int(4) == 0 ? "" : " "), engine: engine) { ran += 1 }
        }
        XCTAssertGreaterThan(ran, 0, "some soups are valid queries")
    }

    func testMutatedQueriesNeverCrash() throws {
        let engine = QueryEngine(store: try PlannerErrorTests.emptyStore(self))
        var random = Random(state: 42)
        var valid = 0, invalid = 0
        for seed in Self.seeds { XCTAssertTrue(check(seed, engine: engine), seed) }
        for _ in 0..<4000 {
            var chars = Array(random.pick(Self.seeds))
            for _ in 0..<(1 + random.int(3)) {
                guard !chars.isEmpty else { break }
                let i = random.int(chars.count)
                switch random.int(6) {
                case 0: chars.remove(at: i)
                case 1: chars.insert(contentsOf: Array(random.pick(Self.pieces)), at: i)
                case 2: chars = Array(chars[..<i])
                case 3: if i + 1 < chars.count { chars.swapAt(i, i + 1) }
                case 4: chars.insert(contentsOf: chars[i..<min(chars.count, i + 1 + random.int(12))], at: i)
                default: chars[i] = random.pick(Array("()',.*+-/=<>!;\"0123456789abcdXYZ _\n\t"))
                }
            }
            if check(String(chars), engine: engine) { valid += 1 } else { invalid += 1 }
        }
        XCTAssertGreaterThan(valid, 100)
        XCTAssertGreaterThan(invalid, 100)
    }
}

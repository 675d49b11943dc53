import FuzzHarness
import HealthCore
import HealthIngest

// PENDING (not in Package.swift yet): the ECG CSV reader lives on branch `ecg`. Once it is
// merged, move this folder to fuzz/targets/ecg, add to Package.swift
//   .executableTarget(name: "fuzz-ecg", dependencies: ["FuzzHarness", "HealthIngest", "HealthCore"],
//                     path: "fuzz/targets/ecg", swiftSettings: strict),
// add `ecg` to FUZZ_TARGETS in the Makefile (max_len 65536 in fuzz/run.sh's default), a
// fuzz/ecg.dict and ECG CSV seeds to fuzz/seeds.py.
//
// An `electrocardiograms/ecg_*.csv` file: the header lines, then voltages, through
// `ECGParser` fed in the chunks the input's first 4 bytes choose; the recording (or the
// error) must equal `ECGReader.parse` of the whole file.

func fuzzECG(_ input: UnsafeRawBufferPointer) {
    let (lengths, csv) = FuzzHarness.chunks(input, count: 4)
    let whole: String
    do { whole = String(reflecting: try ECGReader.parse(bytes: csv, fileName: "ecg.csv")) } catch { whole = "\(error)" }
    var parser = ECGParser(fileName: "ecg.csv")
    let chunked: String
    do {
        try FuzzHarness.feed(csv, lengths: lengths) { (piece) throws(ECGUnreadable) in try parser.feed(piece) }
        chunked = String(reflecting: try parser.finish())
    } catch {
        chunked = "\(error)"
    }
    if chunked != whole { FuzzHarness.disagree("chunked ECG read differs from the whole read:\n  \(chunked)\n  \(whole)") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzECG(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

@main enum Main {
    static func main() { FuzzHarness.main(fuzzerTestOneInput) }
}

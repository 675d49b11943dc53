import FuzzHarness
import HealthCore
import HealthIngest

// An `electrocardiograms/ecg_*.csv` file: the header lines, then voltages, through
// `ECGParser` fed in the chunks the input's first 4 bytes choose; the recording (or the
// error) must equal `ECGReader.parse` of the whole file.

func fuzzECG(_ input: UnsafeRawBufferPointer) {
    let (lengths, csv) = FuzzHarness.chunks(input, count: 4)
    let whole = Result { () throws(ECGUnreadable) in try ECGReader.parse(bytes: csv, fileName: "ecg.csv") }
    var parser = ECGParser(fileName: "ecg.csv")
    let chunked = Result { () throws(ECGUnreadable) in
        try FuzzHarness.feed(csv, lengths: lengths) { (piece) throws(ECGUnreadable) in try parser.feed(piece) }
        return try parser.finish()
    }
    // Compared as values, not as printed text: printing 15,000 voltages per input would be
    // most of the run's time.
    if chunked != whole {
        FuzzHarness.disagree("chunked ECG read differs from the whole read:\n  \(chunked)\n  \(whole)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzECG(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

@main enum Main {
    static func main() { FuzzHarness.main(fuzzerTestOneInput) }
}

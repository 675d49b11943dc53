import XCTest
@testable import HealthFHIR

/// Issue 49: which Bundle a clinical record's file goes to, by its element's `fhirVersion`.
final class FHIRClinicalBundlesTests: XCTestCase {
    func testEachFHIRVersionGoesToItsRelease() {
        let releases = ["1.0.2": "DSTU2", "1.0.1": "DSTU2", "3.0.1": "STU3", "4.0.1": "R4", "4.0.0": "R4",
                        "4.3.0": "R4B", "5.0.0": "R5", "0.5.0": "FHIR-0.5.0", "../x": "FHIR-..x"]
        for (version, release) in releases {
            XCTAssertEqual(FHIRClinicalBundles.release(of: version), release, version)
        }
        XCTAssertEqual(FHIRClinicalBundles.release(of: nil), "unknown", "a file no element names")
    }

    func testOnlyTheR4BundleIsNamedLikeAnR4Output() {
        XCTAssertEqual(FHIRClinicalBundles.fileName("R4"), "Bundle.ndjson")
        XCTAssertEqual(FHIRClinicalBundles.fileName("DSTU2"), "Bundle.DSTU2.ndjson")
        XCTAssertEqual(FHIRClinicalBundles.fileName("unknown"), "Bundle.unknown.ndjson")
    }
}

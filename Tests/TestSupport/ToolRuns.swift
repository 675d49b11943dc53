import Foundation

// How the tests run the desktop tools, written once: each run gets a profile of its own, so a
// running office or browser, or a test running beside it, does not interfere.
extension TestTools {
    /// LibreOffice Calc, headless, opens each of `files` as UTF-8 CSV with commas (filter
    /// `CSV:44,34,76,1`) and saves it as xlsx in `outdir` (its profile in `folder/lo-profile`).
    package static func convertCSVToXLSX(_ files: [String], into outdir: String, profileIn folder: URL,
                                         timeout: TimeInterval = 180) throws -> ProcessResult {
        let profile = folder.appendingPathComponent("lo-profile").absoluteString
        return try runProcess(try libreOffice(), [
            "--headless", "--norestore", "-env:UserInstallation=\(profile)",
            "--convert-to", "xlsx", "--infilter=CSV:44,34,76,1", "--outdir", outdir,
        ] + files, timeout: timeout)
    }

    /// Headless Chromium with the profile `profile` and its console on standard error, then
    /// `arguments` (the window, a screenshot, the page).
    package static func headlessChromium(_ arguments: [String], profile: String, timeout: TimeInterval) throws -> ProcessResult {
        try runProcess(try chromium(), ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                        "--user-data-dir=\(profile)", "--enable-logging=stderr", "--v=0"] + arguments,
                       timeout: timeout)
    }

    /// The page's console lines in a Chromium run's standard error.
    package static func consoleLines(_ run: ProcessResult) -> [String] {
        run.stderr.split(separator: "\n").map(String.init).filter { $0.contains("CONSOLE") }
    }
}

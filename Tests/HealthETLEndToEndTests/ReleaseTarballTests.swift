import Foundation
import HealthPipeline
import XCTest
import TestSupport

/// Issue 43: the release tarball that `make dist` builds (make test builds it first). Extracted
/// into an empty folder, its binary runs with no toolchain and no library path, needs no shared
/// library but the C library's own, imports exactly as `make build`'s binary does, and its
/// Makefile installs and uninstalls it; `man -l` renders the installed page.
final class ReleaseTarballTests: XCTestCase {
    static var machine: String {
        var name = utsname()
        uname(&name)
        return withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    static var name: String { "healthetl-\(Release.version)-linux-\(machine)" }

    /// The tarball of this checkout's version, or a failure that says how to make it.
    static func tarball() throws -> String {
        let path = TestPaths.packageRoot.appendingPathComponent("dist/\(name).tar.gz").path
        guard FileManager.default.fileExists(atPath: path) else {
            XCTFail("\(path) is missing: run make dist (make test runs it first)")
            throw XCTSkip("no release tarball")
        }
        return path
    }

    /// The tarball extracted into an empty folder: the release folder inside it.
    private func extracted() throws -> URL {
        let folder = try temporaryFolder(self)
        let r = try runProcess("/bin/tar", ["-xzf", try Self.tarball(), "-C", folder.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return folder.appendingPathComponent(Self.name)
    }

    func testTheTarballHoldsTheBinaryManPageCompletionsLicenceAndReadmeAndItsSumIsRight() throws {
        let tarball = try Self.tarball()
        let listing = try runProcess("/bin/tar", ["-tzvf", tarball])
        XCTAssertEqual(listing.status, 0)
        for file in ["bin/healthetl", "share/man/man1/healthetl.1", "share/bash-completion/completions/healthetl",
                     "share/zsh/site-functions/_healthetl", "share/fish/vendor_completions.d/healthetl.fish",
                     "share/healthetl/pipelines/default.json", "share/healthetl/pipelines/nightly.json",
                     "share/healthetl/nightly.env", "share/systemd/user/healthetl-nightly.service",
                     "share/systemd/user/healthetl-nightly.timer", "LICENSE", "README.md", "Makefile"] {
            XCTAssertTrue(listing.stdout.contains(" \(Self.name)/\(file)\n"), "the tarball holds \(file)")
        }
        XCTAssertTrue(listing.stdout.contains("-rwxr-xr-x 0/0"), "the binary is executable and owned by no one in particular")
        let check = try runProcess("/bin/sh", ["-c", "cd '\(TestPaths.packageRoot.path)/dist' && sha256sum -c SHA256SUMS"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertTrue(check.stdout.contains("\(Self.name).tar.gz: OK"), check.stdout)
        let release = try extracted()
        let licence = try String(contentsOf: release.appendingPathComponent("LICENSE"), encoding: .utf8)
        XCTAssertTrue(licence.contains("Apache License") && licence.contains("Version 2.0"))
        let readme = try String(contentsOf: release.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("make install") && readme.contains("healthetl import"), readme)
    }

    func testTheBinaryNeedsOnlyTheCLibraryAndImportsAsMakeBuildsDoesWithoutAToolchain() throws {
        let release = try extracted()
        let binary = release.appendingPathComponent("bin/healthetl").path
        let ldd = try runProcess("/usr/bin/ldd", [binary])
        XCTAssertEqual(ldd.status, 0, ldd.stderr)
        for line in ldd.stdout.split(separator: "\n") {
            let library = line.trimmingCharacters(in: .whitespaces).prefix { $0 != " " }
            XCTAssertNotNil(library.wholeMatch(of: /(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|\/lib64\/ld-linux-x86-64\.so\.2|\/lib\/ld-linux-aarch64\.so\.1)/),
                            "only the C library's own parts are loaded: \(line)")
        }
        for absent in ["swift", "xml2", "sqlite", "libz", "icu", "lzma", "stdc++"] {
            XCTAssertFalse(ldd.stdout.contains(absent), "\(absent) is linked in, not loaded")
        }
        // With nothing of the environment: no toolchain on PATH, no LD_LIBRARY_PATH, no HOME.
        let version = try runProcess("/usr/bin/env", ["-i", "PATH=/usr/bin:/bin", binary, "--version"])
        XCTAssertEqual(version.status, 0, version.stderr)
        XCTAssertTrue(version.stdout.hasPrefix("healthetl \(Release.version) (commit "), version.stdout)

        // The outputs of make build's binary and of this one, byte for byte: the sample full and
        // incremental, into a plain folder and for a person (scripts/compare-outputs.sh; it sets
        // TZ for both binaries, which the bare environment keeps).
        let built = TestPaths.packageRoot.appendingPathComponent(".build/release/healthetl").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: built), "make build's binary at \(built)")
        let wrapper = try write("#!/bin/sh\nexec env -i PATH=/usr/bin:/bin ${TZ:+TZ=$TZ} '\(binary)' \"$@\"\n", to: "healthetl-bare",
                                in: try temporaryFolder(self))
        chmod(wrapper, 0o755)
        let compare = try runProcess(TestPaths.packageRoot.appendingPathComponent("scripts/compare-outputs.sh").path,
                                     [built, wrapper], timeout: 600)
        XCTAssertEqual(compare.status, 0, String(compare.stdout.suffix(3000)) + String(compare.stderr.suffix(3000)))
        XCTAssertTrue(compare.stdout.contains("same: plain full.dump") && compare.stdout.contains("same: person incr.sums"),
                      compare.stdout)
        XCTAssertFalse(compare.stdout.contains("DIFFERENT"), compare.stdout)
    }

    func testItsMakefileInstallsWhereManAndTheShellsLookAndUninstallsExactlyThat() throws {
        let release = try extracted()
        let prefix = try temporaryFolder(self).appendingPathComponent("prefix with space")
        let destdir = try temporaryFolder(self).path
        let install = try runProcess("/usr/bin/make", ["-C", release.path, "install", "PREFIX=\(prefix.path)"])
        XCTAssertEqual(install.status, 0, install.stdout + install.stderr)
        let installed = try files(under: prefix.path)
        XCTAssertEqual(installed, ["bin/healthetl", "share/bash-completion/completions/healthetl",
                                   "share/doc/healthetl/LICENSE", "share/doc/healthetl/README.md",
                                   "share/fish/vendor_completions.d/healthetl.fish", "share/healthetl/nightly.env",
                                   "share/healthetl/pipelines/default.json", "share/healthetl/pipelines/nightly.json",
                                   "share/man/man1/healthetl.1", "share/systemd/user/healthetl-nightly.service",
                                   "share/systemd/user/healthetl-nightly.timer", "share/zsh/site-functions/_healthetl"])
        let binary = prefix.appendingPathComponent("bin/healthetl").path
        XCTAssertEqual(try runProcess(binary, ["--version"]).status, 0)
        // man renders the installed page; the installed bash completion completes with the installed binary.
        let man = try runProcess("/usr/bin/man", ["--warnings", "-l", prefix.appendingPathComponent("share/man/man1/healthetl.1").path],
                                 environment: ["MANWIDTH": "100", "MANPAGER": "cat"])
        XCTAssertEqual(man.status, 0, man.stderr)
        XCTAssertTrue(man.stdout.contains("HEALTHETL(1)") && man.stdout.contains("healthetl completions WHAT"), String(man.stdout.prefix(500)))
        let bash = try runProcess("/bin/bash", ["--norc", "-c", "source '\(prefix.path)/share/bash-completion/completions/healthetl'; "
                                                + "COMP_WORDS=('\(binary)' ''); COMP_CWORD=1; _healthetl; echo \"${COMPREPLY[*]}\""])
        XCTAssertTrue(bash.stdout.contains("import import-all people"), bash.stdout + bash.stderr)

        // DESTDIR stages under another root, as a package build does.
        let staged = try runProcess("/usr/bin/make", ["-C", release.path, "install", "PREFIX=/usr", "DESTDIR=\(destdir)"])
        XCTAssertEqual(staged.status, 0, staged.stderr)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: destdir + "/usr/bin/healthetl"))

        // Uninstall removes exactly what install put there: a file of someone else's stays.
        let other = try write("not ours", to: "bin/other-tool", in: prefix)
        let uninstall = try runProcess("/usr/bin/make", ["-C", release.path, "uninstall", "PREFIX=\(prefix.path)"])
        XCTAssertEqual(uninstall.status, 0, uninstall.stdout + uninstall.stderr)
        XCTAssertEqual(try files(under: prefix.path), ["bin/other-tool"])
        XCTAssertEqual(try String(contentsOfFile: other, encoding: .utf8), "not ours")
    }

    private func files(under root: String) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder), !isFolder.boolValue { found.append(path) }
        }
        return found.sorted()
    }
}

import BlockingWork
import Foundation
import RibcagePackage

/// The Swift toolchain on this machine, as far as lint needs it: the modules its SDK provides,
/// its compiler version and the machine's architecture.
package struct Toolchain: Sendable, Equatable {
    /// Every module the toolchain provides on this platform: its Swift modules and the clang
    /// modules of its module maps (`SwiftGlibc`, `CoreFoundation`, `_Builtin_stdint`…).
    package var modules: Set<String>
    /// `6.3.1` as `[6, 3, 1]`; empty when unknown.
    package var compilerVersion: [Int]
    /// The architecture as `#if arch(…)` names it: `x86_64`, `arm64`.
    package var architecture: String
    /// Where the modules were read from, or `nil` for the built-in fallback.
    package var location: String?

    /// A toolchain described by hand, for tests.
    package init(
        modules: Set<String>, compilerVersion: [Int], architecture: String = Toolchain.hostArchitecture,
        location: String? = nil
    ) {
        self.modules = modules
        self.compilerVersion = compilerVersion
        self.architecture = architecture
        self.location = location
    }

    /// The architecture ribcage was built for, which is the one it runs on.
    package static var hostArchitecture: String {
        #if arch(x86_64)
            "x86_64"
        #elseif arch(arm64)
            "arm64"
        #elseif arch(i386)
            "i386"
        #elseif arch(arm)
            "arm"
        #else
            "unknown"
        #endif
    }

    /// The toolchain whose `swift` is first on `PATH`; its `usr/lib/swift/<os>` folder holds the
    /// SDK's modules. Falls back to ``PlatformModules/linuxFallback`` when that cannot be read.
    package static func current() -> Toolchain {
        guard let prefix = installFolder() else { return fallback }
        return read(usrFolder: prefix) ?? fallback
    }

    /// The `usr` folder of the toolchain whose `swift` is first on `PATH` (`/opt/swift/usr`),
    /// links resolved; nil when there is no `swift`.
    package static func installFolder() -> URL? {
        guard let swift = Shell.executablePath("swift") else { return nil }
        let binary = URL(fileURLWithPath: swift).resolvingSymlinksInPath()
        return binary.deletingLastPathComponent().deletingLastPathComponent()
    }

    /// ``current()`` for async callers, on a thread of its own: it walks the toolchain's
    /// `lib/swift` folder and reads every module map there, which must not hold a thread of the
    /// cooperative pool.
    package static func currentOffThePool() async throws -> Toolchain {
        await DedicatedThread.run(named: "ribcage-toolchain") { current() }
    }

    private static var fallback: Toolchain {
        Toolchain(modules: PlatformModules.linuxFallback, compilerVersion: [])
    }

    /// Reads a toolchain's `usr` folder.
    package static func read(usrFolder usr: URL) -> Toolchain? {
        let files = FileManager.default
        let swiftLib = usr.appendingPathComponent("lib/swift")
        let sdk = swiftLib.appendingPathComponent(platformFolder)
        guard let entries = try? files.contentsOfDirectory(atPath: sdk.path) else { return nil }
        var modules = Set(
            entries.filter { $0.hasSuffix(".swiftmodule") }.map { String($0.dropLast(".swiftmodule".count)) })
        // Clang modules: every module map under lib/swift, and clang's own builtin modules.
        var maps: [URL] = []
        if let walker = files.enumerator(at: swiftLib, includingPropertiesForKeys: nil) {
            for case let file as URL in walker where file.pathExtension == "modulemap" {
                if !file.path.contains("/embedded/") { maps.append(file) }
            }
        }
        let clang = usr.appendingPathComponent("lib/clang")
        for version in (try? files.contentsOfDirectory(atPath: clang.path)) ?? [] {
            maps.append(clang.appendingPathComponent("\(version)/include/module.modulemap"))
        }
        for map in maps {
            guard let text = try? String(contentsOf: map, encoding: .utf8) else { continue }
            modules.formUnion(ModuleMap.topLevelModules(in: text))
        }
        let interface = sdk.appendingPathComponent(
            "Swift.swiftmodule/\(hostArchitecture)-unknown-linux-gnu.swiftinterface")
        let version = (try? String(contentsOf: interface, encoding: .utf8)).map(compilerVersion(in:)) ?? []
        return Toolchain(modules: modules, compilerVersion: version, location: sdk.path)
    }

    private static var platformFolder: String {
        #if os(macOS)
            "macosx"
        #elseif os(Windows)
            "windows"
        #elseif os(Android)
            "android"
        #else
            "linux"
        #endif
    }

    /// `6.3.1` from a `// swift-compiler-version: Swift version 6.3.1 (…)` header.
    package static func compilerVersion(in interface: String) -> [Int] {
        guard
            let line = interface.split(separator: "\n").prefix(5).first(where: {
                $0.contains("swift-compiler-version:")
            }),
            let range = line.range(of: "Swift version ")
        else { return [] }
        let version = line[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        return version.split(separator: ".").compactMap { Int($0) }
    }
}

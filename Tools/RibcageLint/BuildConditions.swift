import SwiftIfConfig
import SwiftSyntax

/// What `#if` conditions see when one target is built on this machine in SwiftPM's default
/// debug configuration: the platform, the toolchain, the target's flags and the modules it can
/// import. SwiftIfConfig asks it through ``BuildConfiguration``; what only the compiler knows
/// (`hasFeature`, `hasAttribute`) is thrown as ``BuildConditions/Unknown``, which lint reads as
/// "may be compiled".
package struct BuildConditions: Sendable {
    /// The operating system as `os(…)` names it.
    package var operatingSystem: String
    /// The architecture as `arch(…)` names it.
    package var architecture: String
    /// The compiler's version, for `compiler(…)` and `swift(…)`: `[6, 3, 1]`; empty when unknown.
    package var compilerVersionComponents: [Int]
    /// Flags that are set: `DEBUG`, the target's `-D` defines, the package's enabled traits.
    package var flags: Set<String>
    /// Modules for which `canImport` holds: the platform's SDK and the target's declared
    /// dependencies.
    package var importable: Set<String>

    /// Conditions for a build on this machine.
    package init(
        toolchain: Toolchain, flags: Set<String>, importable: Set<String>,
        operatingSystem: String = BuildConditions.hostOperatingSystem
    ) {
        self.operatingSystem = operatingSystem
        self.architecture = toolchain.architecture
        self.compilerVersionComponents = toolchain.compilerVersion
        self.flags = flags
        self.importable = importable
    }

    /// The system ribcage runs on, as `os(…)` names it.
    package static var hostOperatingSystem: String {
        #if os(Linux)
            "Linux"
        #elseif os(macOS)
            "macOS"
        #elseif os(Windows)
            "Windows"
        #elseif os(Android)
            "Android"
        #elseif os(FreeBSD)
            "FreeBSD"
        #elseif os(OpenBSD)
            "OpenBSD"
        #else
            "unknown"
        #endif
    }
}

extension BuildConditions: BuildConfiguration {
    /// A question about the build that only the compiler can answer.
    package struct Unknown: Error, CustomStringConvertible {
        package var question: String
        package var description: String { "only the compiler knows \(question)" }
    }

    /// A flag; `$Feature` names a language feature, which only the compiler knows it has.
    package func isCustomConditionSet(name: String) throws -> Bool {
        if name.hasPrefix("$") { throw Unknown(question: name) }
        return flags.contains(name)
    }

    package func hasFeature(name: String) throws -> Bool {
        throw Unknown(question: "hasFeature(\(name))")
    }

    package func hasAttribute(name: String) throws -> Bool {
        throw Unknown(question: "hasAttribute(\(name))")
    }

    /// Whether the first component of the path is importable; a version asked for is not
    /// checked, because the modules are known by name only.
    package func canImport(importPath: [(TokenSyntax, String)], version: CanImportVersion) throws -> Bool {
        guard let module = importPath.first?.1 else { throw Unknown(question: "canImport()") }
        return importable.contains(module)
    }

    package func isActiveTargetOS(name: String) throws -> Bool {
        name == operatingSystem
    }

    package func isActiveTargetArchitecture(name: String) throws -> Bool {
        name == architecture
    }

    /// `simulator` and `macCatalyst` exist only on Apple platforms, and lint runs on Linux.
    package func isActiveTargetEnvironment(name: String) throws -> Bool {
        false
    }

    package func isActiveTargetRuntime(name: String) throws -> Bool {
        name == "_Native" || (name == "_multithreaded" && operatingSystem != "WASI")
    }

    package func isActiveTargetPointerAuthentication(name: String) throws -> Bool {
        false
    }

    package var targetPointerBitWidth: Int { 64 }

    package var targetAtomicBitWidths: [Int] { [8, 16, 32, 64] }

    package var endianness: Endianness { .little }

    /// The compiler's version: each target's language mode is not read, so `swift(…)` is judged
    /// by the compiler that builds it, as a target in the newest mode would be.
    package var languageVersion: VersionTuple { VersionTuple(components: compilerVersionComponents) }

    package var compilerVersion: VersionTuple { VersionTuple(components: compilerVersionComponents) }
}

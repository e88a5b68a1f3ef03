/// What `#if` conditions see when one target is built on this machine in SwiftPM's default
/// debug configuration: the platform, the toolchain, the target's flags and the modules it can
/// import.
package struct BuildConditions: Sendable {
    /// The operating system as `os(…)` names it.
    package var operatingSystem: String
    /// The architecture as `arch(…)` names it.
    package var architecture: String
    /// The compiler's version, for `compiler(…)` and `swift(…)`; empty when unknown.
    package var compilerVersion: [Int]
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
        self.compilerVersion = toolchain.compilerVersion
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

    /// `canImport(Darwin)`, `os(Linux)`, `compiler(>=6.1)`…; `nil` for what cannot be known.
    func evaluateCheck(_ name: String, argument: String) -> Bool? {
        switch name {
        case "os":
            return argument == operatingSystem
        case "arch":
            return argument == architecture
        case "canImport":
            let module = argument.prefix { $0 != "," }.trimmingCharacters(in: .whitespaces)
            return importable.contains(module)
        case "compiler", "swift":
            return Self.compare(compilerVersion, with: argument)
        case "targetEnvironment":
            // simulator and macCatalyst exist only on Apple platforms.
            return false
        case "_runtime":
            return argument == "_Native" || (argument == "_multithreaded" && operatingSystem != "WASI")
        case "_endian":
            return argument == "little"
        case "_pointerBitWidth":
            return argument == "_64"
        case "_hasAtomicBitWidth":
            return ["_8", "_16", "_32", "_64"].contains(argument) ? true : nil
        case "_ptrauth":
            return false
        default:
            // hasFeature, hasAttribute, _compiler_version: the compiler's business.
            return nil
        }
    }

    /// `>=6.1` or `<5.9` against a version; `nil` when either side is unreadable.
    static func compare(_ version: [Int], with argument: String) -> Bool? {
        guard !version.isEmpty else { return nil }
        let isAtLeast: Bool
        let number: Substring
        if argument.hasPrefix(">=") {
            (isAtLeast, number) = (true, argument.dropFirst(2))
        } else if argument.hasPrefix("<") {
            (isAtLeast, number) = (false, argument.dropFirst(1))
        } else {
            return nil
        }
        let wanted = number.split(separator: ".").compactMap { Int($0) }
        guard !wanted.isEmpty else { return nil }
        let width = max(version.count, wanted.count)
        let padded = { (parts: [Int]) in parts + Array(repeating: 0, count: width - parts.count) }
        let atLeast = !padded(version).lexicographicallyPrecedes(padded(wanted))
        return isAtLeast ? atLeast : !atLeast
    }
}

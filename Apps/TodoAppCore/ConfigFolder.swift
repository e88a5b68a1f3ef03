import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Puts UserDefaults under `$TODOAPP_HOME/config` when `TODOAPP_HOME` is set.
///
/// Foundation on Linux reads `XDG_CONFIG_HOME` once, before `main` runs, and keeps every
/// UserDefaults suite there; changing the variable later has no effect (we tried). So the app
/// sets it and starts itself again, once, before it does anything else.
enum ConfigFolder {
    static func relaunchIfNeeded(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let home = environment["TODOAPP_HOME"], !home.isEmpty else { return }
        let wanted = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent("config").path
        guard environment["XDG_CONFIG_HOME"] != wanted else { return }
        setenv("XDG_CONFIG_HOME", wanted, 1)
        #if os(Linux)
            execv("/proc/self/exe", CommandLine.unsafeArgv)
        #else
            execv(CommandLine.unsafeArgv[0], CommandLine.unsafeArgv)
        #endif
        // Still here: the exec failed. Go on; UserDefaults stays in the old folder.
        FileHandle.standardError.write(
            Data(
                "warning: could not restart with XDG_CONFIG_HOME=\(wanted); the profile stays in the default folder\n"
                    .utf8))
    }
}

import Foundation

/// Where Ribcage keeps data on disk, following the XDG base-directory convention.
public enum StorageLocation {
    /// `$XDG_DATA_HOME/<namespace>`, or `~/.local/share/<namespace>` when it is unset.
    ///
    /// - Parameters:
    ///   - namespace: A folder of its own per app or flavor, e.g. `TodoApp-Dog`.
    ///   - environment: Read for `XDG_DATA_HOME` and `HOME`.
    public static func dataDirectory(
        namespace: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        base(environment["XDG_DATA_HOME"], fallback: ".local/share", environment: environment)
            .appendingPathComponent(namespace, isDirectory: true)
    }

    /// `$XDG_CONFIG_HOME`, or `~/.config` when it is unset: where UserDefaults keeps its files on
    /// Linux.
    public static func configDirectory(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> URL
    {
        base(environment["XDG_CONFIG_HOME"], fallback: ".config", environment: environment)
    }

    private static func base(_ value: String?, fallback: String, environment: [String: String]) -> URL {
        if let value, value.hasPrefix("/") { return URL(fileURLWithPath: value, isDirectory: true) }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
            fallback, isDirectory: true)
    }
}

import Domain
import Foundation
import HeadlessUI
import Layout
import LocalProvider

/// Everything the environment and the command line decide about one run.
struct AppConfiguration: Sendable {
    var flavor: AppFlavor
    /// The window's size in cells.
    var size: Size
    /// Serve the APIs' bundled sample answers instead of asking the network.
    var isOffline: Bool
    /// Why the app is offline when it chose so itself; shown in the status line.
    var offlineReason: String?
    /// `TODOAPP_API_BASE_URL`, when set; `nil` means the flavor's public API.
    var apiBaseURL: URL?
    /// The Cat API's key (`CAT_API_KEY`); never logged or drawn.
    var catAPIKey: String?
    /// Seconds before a photo request gives up (`TODOAPP_TIMEOUT`, 10 by default).
    var requestTimeout: TimeInterval
    /// Where the todos and favourites live.
    var dataDirectory: URL
    /// The folder UserDefaults writes its suite files to.
    var configDirectory: URL

    /// Reads `environment`:
    /// - `TODOAPP_HOME`: keep data in `$TODOAPP_HOME/data/<flavor>` and UserDefaults in
    ///   `$TODOAPP_HOME/config`, instead of the XDG folders;
    /// - `XDG_DATA_HOME`, `XDG_CONFIG_HOME`: the XDG folders;
    /// - `TODOAPP_API_BASE_URL` (a bare origin gets the API's path, see ``apiBase(_:flavor:)``),
    ///   `CAT_API_KEY`, `TODOAPP_TIMEOUT`.
    ///
    /// - Throws: ``AppError/badEnvironment(_:)`` for a base URL or timeout that does not parse.
    init(flavor: AppFlavor, options: AppOptions, environment: [String: String]) throws(AppError) {
        self.flavor = flavor
        size = options.size ?? Size(width: 80, height: 24)
        isOffline = options.offline
        if let home = environment["TODOAPP_HOME"], !home.isEmpty {
            let root = URL(fileURLWithPath: home, isDirectory: true)
            dataDirectory = root.appendingPathComponent("data/\(flavor.namespace)", isDirectory: true)
            configDirectory = root.appendingPathComponent("config", isDirectory: true)
        } else {
            dataDirectory = StorageLocation.dataDirectory(
                namespace: flavor.namespace, environment: environment)
            configDirectory = StorageLocation.configDirectory(environment: environment)
        }
        if let base = environment["TODOAPP_API_BASE_URL"], !base.isEmpty {
            guard let url = URL(string: base), url.scheme == "http" || url.scheme == "https", url.host != nil
            else { throw .badEnvironment("TODOAPP_API_BASE_URL is not an http(s) URL: \(base)") }
            apiBaseURL = Self.apiBase(url, flavor: flavor)
        }
        catAPIKey = environment["CAT_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        requestTimeout = 10
        if let text = environment["TODOAPP_TIMEOUT"] {
            guard let seconds = TimeInterval(text), seconds > 0, seconds.isFinite else {
                throw .badEnvironment("TODOAPP_TIMEOUT is not a positive number of seconds: \(text)")
            }
            requestTimeout = seconds
        }
    }
}

extension AppConfiguration {
    /// `url` as the API's base: a bare origin (`http://127.0.0.1:8080`, with or without the
    /// final `/`) gets the public API's path (`/api` for Dog CEO, `/v1` for The Cat API); a URL
    /// with a path is taken as it is.
    static func apiBase(_ url: URL, flavor: AppFlavor) -> URL {
        guard url.path.isEmpty || url.path == "/" else { return url }
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + flavor.publicAPI.path) ?? url
    }
}

/// Why the app could not start.
enum AppError: Error, Equatable, CustomStringConvertible {
    /// An environment variable's value is not usable.
    case badEnvironment(String)
    /// The data folder or the script could not be opened.
    case cannotOpen(String)

    /// A sentence for standard error.
    var description: String {
        switch self {
        case .badEnvironment(let reason), .cannotOpen(let reason): reason
        }
    }
}

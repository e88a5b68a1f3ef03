import Foundation
import RibcagePackage
import RibcageTesting
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Debian's nginx, started by a test on a loopback port with a WebDAV configuration the test
/// writes: `PUT` stores a file (creating its folders), `GET` reads it back, which is all Bazel's
/// HTTP remote-cache protocol asks of a server. `/slow/` serves the same store at one byte a
/// second, for the cache's timeout.
///
/// nginx runs in the foreground as a single process, under `timeout`, so even a test process
/// that dies before ``stop()`` leaves nothing running for long; ``withServer(_:)`` stops it
/// whether the body passes or throws.
final class NginxWebDAV: Sendable {
    /// Holds the configuration, the logs and the store.
    let folder: URL
    /// The loopback port it listens on.
    let port: Int
    private let process = Mutex<Task<ProcessResult, any Error>?>(nil)

    /// What nginx saved, one file per blob: `store/<prefix>/ac/<key>`,
    /// `store/<prefix>/cas/<digest>`.
    var store: URL { folder.appendingPathComponent("store", isDirectory: true) }
    /// The server's base URL.
    var url: String { "http://127.0.0.1:\(port)" }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// nginx could not listen: something else holds the port.
        var portTaken = false
    }

    private init(folder: URL, port: Int) {
        self.folder = folder
        self.port = port
    }

    /// Starts nginx, runs `body` with it, and stops it and removes its folder afterwards.
    static func withServer<T>(_ body: (NginxWebDAV) async throws -> T) async throws -> T {
        guard let binary = Shell.executablePath("nginx") ?? Shell.executablePath("/usr/sbin/nginx") else {
            throw Failure(
                description:
                    "nginx is not installed; run Tools/install-system-packages (apt-get install nginx)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcage-nginx-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("store"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The free port is free when asked, not always when nginx binds it: another process
        // can take it in between. nginx then exits, and another port is tried.
        var attempt = 1
        var server = NginxWebDAV(folder: folder, port: try freeLoopbackPort())
        while true {
            try server.writeConfiguration()
            do {
                try await server.start(binary: binary)
                break
            } catch let failure as Failure where failure.portTaken && attempt < 5 {
                attempt += 1
                server = NginxWebDAV(folder: folder, port: try freeLoopbackPort())
            }
        }
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    private func writeConfiguration() throws {
        let path = folder.path
        let configuration = """
            daemon off;
            master_process off;
            pid \(path)/nginx.pid;
            error_log \(path)/error.log;
            events { worker_connections 64; }
            http {
                access_log \(path)/access.log;
                client_body_temp_path \(path)/body;
                proxy_temp_path \(path)/proxy;
                fastcgi_temp_path \(path)/fastcgi;
                uwsgi_temp_path \(path)/uwsgi;
                scgi_temp_path \(path)/scgi;
                server {
                    listen 127.0.0.1:\(port);
                    root \(path)/store;
                    client_max_body_size 64m;
                    location / {
                        dav_methods PUT;
                        create_full_put_path on;
                        dav_access user:rw;
                    }
                    location /slow/ {
                        alias \(path)/store/;
                        limit_rate 1;
                    }
                }
            }

            """
        try Data(configuration.utf8).write(to: folder.appendingPathComponent("nginx.conf"))
    }

    /// Starts nginx (again, after ``stop()``) and returns once it answers.
    func start(binary: String? = nil) async throws {
        let executable = binary ?? Shell.executablePath("nginx") ?? "/usr/sbin/nginx"
        let folder = folder
        let task = Task {
            try await Shell.run(
                "timeout",
                [
                    "900", executable, "-p", folder.path, "-c",
                    folder.appendingPathComponent("nginx.conf").path,
                    "-e", folder.appendingPathComponent("error.log").path,
                ])
        }
        process.withLock { $0 = task }
        let probe = try HTTPBlobStore(url: url, timeout: .seconds(1))
        let absent = String(repeating: "0", count: 64)
        for _ in 0..<100 {
            // Any HTTP answer, a 404 for this absent key included, means a server is serving;
            // a refused connection means nginx is still starting. nginx writes its pid file
            // once it listens, so an answer without it came from whoever else has the port.
            do {
                _ = try await probe.get(.actionCache, absent)
                if isRunning { return }
            } catch {}
            if isRunning == false, errorLog.contains("Address already in use") { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        await stop()
        let log = errorLog
        throw Failure(
            description: "nginx did not answer on port \(port) within 10 s:\n\(log)",
            portTaken: log.contains("Address already in use"))
    }

    /// Whether the nginx of this folder has written its pid file and is alive.
    private var isRunning: Bool {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("nginx.pid"), encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return false }
        return kill(pid, 0) == 0
    }

    /// What nginx wrote to its error log so far ("" before it wrote any).
    private var errorLog: String {
        (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    }

    /// Stops nginx (SIGTERM, a fast shutdown) and waits until it has exited.
    func stop() async {
        guard
            let task = process.withLock({ current -> Task<ProcessResult, any Error>? in
                defer { current = nil }
                return current
            })
        else { return }
        if let text = try? String(contentsOf: folder.appendingPathComponent("nginx.pid"), encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            kill(pid, SIGTERM)
        }
        _ = try? await task.value
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("nginx.pid"))
    }

    /// A port nothing listens on now: the kernel's choice for a socket bound to port 0.
    private static func freeLoopbackPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

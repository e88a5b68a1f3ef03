import Foundation
import SwiftProtobuf
import Synchronization

/// A bot of the Remote Workers API: opens a session with a scheduler (BuildGrid), takes the
/// leases it is given, runs each lease's REAPI action with a ``LeaseRunner`` and reports the
/// results, one action at a time. Several workers, on one machine or many, make a pool.
///
/// The session stays alive by reporting more often than the server's expiry asks; a worker that
/// stops reporting (killed, cut off) loses its session, and the scheduler gives its lease to
/// another bot. A lease the server cancels, or no longer lists, is stopped here.
public struct RemoteWorker<Runner: LeaseRunner>: Sendable {
    /// The bot's name in the farm: unique, and meaningful to a person looking for the machine.
    public var botID: String
    /// The primary device's properties, matched against actions' platforms by the scheduler.
    public var properties: [(key: String, value: String)]
    /// Runs the actions.
    public var runner: Runner
    /// How long one report waits for work while the bot is idle (the server holds the call
    /// until it has a lease, or most of this has passed).
    public var idleWait: Duration = .seconds(30)
    /// The longest gap between reports while an action runs; shorter when the server's session
    /// expiry asks for it.
    public var busyReport: Duration = .seconds(10)
    /// Where the worker says what it took and how it went.
    public var log: @Sendable (String) -> Void
    /// Where each report and the server's answer are described, when set.
    public var trace: (@Sendable (String) -> Void)?

    /// A worker named `botID` whose device offers `properties`, running actions with `runner`.
    public init(
        botID: String, properties: [(key: String, value: String)], runner: Runner,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.botID = botID
        self.properties = properties
        self.runner = runner
        self.log = log
    }

    /// Opens a session on `client`'s server and works until the task is cancelled (returning
    /// normally) or the server fails or refuses a call (throwing; the caller may open a new
    /// session). Either way the actions still running are stopped, and waited for, first.
    ///
    /// - Parameter cas: where the actions named by digest are read (default: `client`'s server).
    public func work(on client: RemoteExecutionClient, cas: RemoteExecutionClient? = nil)
        async throws(RemoteExecutionError)
    {
        let book = LeaseBook()
        do {
            try await serveSession(on: client, cas: cas ?? client, book: book)
        } catch {
            await book.stopAll()
            throw error
        }
        await book.stopAll()
    }

    private func serveSession(on client: RemoteExecutionClient, cas: RemoteExecutionClient, book: LeaseBook)
        async throws(RemoteExecutionError)
    {
        var session = RemoteWorkers.BotSession()
        session.botID = botID
        session.status = .ok
        var device = RemoteWorkers.Device()
        device.handle = botID
        device.properties = properties.map { key, value in
            var property = RemoteWorkers.Device.Property()
            property.key = key
            property.value = value
            return property
        }
        session.worker.devices = [device]
        session = try await client.createBotSession(session)
        log("session \(session.name) opened as \(botID)")
        while !Task.isCancelled {
            take(session.leases, into: book, cas: cas)
            if book.isBusy {
                await book.waitForAnyFinished(upTo: reportInterval(expiring: session))
            }
            session.leases = book.report()
            let timeout = book.isBusy ? reportInterval(expiring: session) + .seconds(5) : idleWait
            do {
                trace?("report: \(Self.describe(session.leases))")
                session = try await client.updateBotSession(session, timeout: timeout)
                trace?("answer: \(Self.describe(session.leases)), version \(session.version)")
            } catch .timedOut {
                // An idle report that the server held to its deadline: nothing came.
                continue
            } catch .cancelled where Task.isCancelled {
                return
            }
            book.forgetReported()
        }
    }

    /// Starts a new lease when idle, declines it when busy, and stops the cancelled leases and
    /// the ones the server dropped.
    private func take(_ leases: [RemoteWorkers.Lease], into book: LeaseBook, cas: RemoteExecutionClient) {
        var listed = Set<String>()
        for lease in leases {
            listed.insert(lease.id)
            switch lease.state {
            // The API offers work as PENDING; BuildGrid offers it already ACTIVE (it marks a job
            // executing when it assigns it). Either way, a lease this bot does not hold is new.
            case .pending where !book.holds(lease.id), .active where !book.holds(lease.id):
                guard !book.isBusy else {
                    // One action at a time: a lease left unreported would stay assigned here
                    // for good, so it goes back as this bot's failure and the scheduler gives it
                    // to another.
                    log("lease \(lease.id) declined: this worker is busy")
                    book.decline(lease.id, because: "the worker was busy with another action")
                    continue
                }
                let runner = self.runner
                let log = self.log
                log("lease \(lease.id) taken")
                book.start(lease.id) {
                    let outcome = await Self.run(lease, with: runner, cas: cas)
                    switch outcome {
                    case .ran(let result, let timedOut):
                        log(
                            "lease \(lease.id) ran: exit code \(result.exitCode)\(timedOut ? ", timed out" : "")"
                        )
                    case .botFailed(let reason):
                        log("lease \(lease.id) could not run here: \(reason)")
                    }
                    return outcome
                }
            case .cancelled:
                if book.holds(lease.id) { log("lease \(lease.id) cancelled by the server") }
                book.cancel(lease.id)
            default:
                break
            }
        }
        for dropped in book.running.subtracting(listed) {
            log("lease \(dropped) no longer ours: stopped")
            book.cancel(dropped)
        }
    }

    /// Unpacks the lease's action (an Action, or the Digest of one in the server's CAS) and runs
    /// it.
    private static func run(_ lease: RemoteWorkers.Lease, with runner: Runner, cas: RemoteExecutionClient)
        async -> LeaseOutcome
    {
        let action: REAPI.Action
        let digest: BlobDigest
        do {
            if lease.payload.isA(REAPI.Action.self) {
                action = try REAPI.Action(unpackingAny: lease.payload)
                digest = try BlobDigest.of(action).digest
            } else if lease.payload.isA(REAPI.Digest.self) {
                digest = BlobDigest(try REAPI.Digest(unpackingAny: lease.payload))
                guard let bytes = try await cas.read([digest])[digest] else {
                    return .botFailed("the server's CAS lacks the action \(digest)")
                }
                action = try REAPI.Action(serializedBytes: bytes)
            } else {
                return .botFailed("a lease whose payload is \(lease.payload.typeURL), not a REAPI Action")
            }
        } catch {
            return .botFailed("cannot read the lease's action: \(error)")
        }
        return await runner.run(action, digest: digest)
    }

    private static func describe(_ leases: [RemoteWorkers.Lease]) -> String {
        leases.isEmpty ? "no leases" : leases.map { "\($0.id) \($0.state)" }.joined(separator: ", ")
    }

    /// How long to go between reports while busy: well inside the session's expiry.
    private func reportInterval(expiring session: RemoteWorkers.BotSession) -> Duration {
        guard session.hasExpireTime else { return busyReport }
        let left = session.expireTime.date.timeIntervalSinceNow
        return min(busyReport, .milliseconds(max(200, Int(left * 1000 / 3))))
    }
}

/// The leases a worker holds: the running ones' tasks, the cancelled ones' until they have
/// stopped, and the finished ones' outcomes until the server has heard them.
private final class LeaseBook: Sendable {
    private struct State {
        var tasks: [String: Task<Void, Never>] = [:]
        var stopping: [String: Task<Void, Never>] = [:]
        var finished: [String: LeaseOutcome] = [:]
        var reported: Set<String> = []
    }
    private let state = Mutex(State())

    /// Whether an action runs or is still stopping: a new one would share the machine with it.
    var isBusy: Bool { state.withLock { !$0.tasks.isEmpty || !$0.stopping.isEmpty } }
    var running: Set<String> { state.withLock { Set($0.tasks.keys) } }

    func holds(_ id: String) -> Bool {
        state.withLock { $0.tasks[id] != nil || $0.finished[id] != nil }
    }

    func start(_ id: String, _ work: @escaping @Sendable () async -> LeaseOutcome) {
        state.withLock { state in
            state.tasks[id] = Task {
                let outcome = await work()
                self.state.withLock { state in
                    // A lease cancelled meanwhile is in `stopping`: its outcome is moot. (A new
                    // lease starts only when nothing is stopping, so the id is this task's.)
                    if state.stopping[id] != nil {
                        state.stopping[id] = nil
                    } else if state.tasks.removeValue(forKey: id) != nil {
                        state.finished[id] = outcome
                    }
                }
            }
        }
    }

    /// Reports `id` as this bot's failure without running it.
    func decline(_ id: String, because reason: String) {
        state.withLock { $0.finished[id] = .botFailed(reason) }
    }

    func cancel(_ id: String) {
        state.withLock { state -> Task<Void, Never>? in
            guard let task = state.tasks.removeValue(forKey: id) else { return nil }
            state.stopping[id] = task
            return task
        }?.cancel()
    }

    /// Cancels every running action and returns once all have stopped.
    func stopAll() async {
        let tasks = state.withLock { state in
            for (id, task) in state.tasks { state.stopping[id] = task }
            state.tasks = [:]
            return Array(state.stopping.values)
        }
        for task in tasks {
            task.cancel()
            await task.value
        }
    }

    /// Returns when an action finished or a cancelled one stopped, or after `limit`: either way
    /// the server should hear of it, and a bot that went idle can take work again.
    func waitForAnyFinished(upTo limit: Duration) async {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: limit)
        let stoppingAtFirst = state.withLock { $0.stopping.count }
        while clock.now < end, !Task.isCancelled,
            state.withLock({ $0.finished.isEmpty && $0.stopping.count >= stoppingAtFirst })
        {
            do {
                try await Task.sleep(for: .milliseconds(100))
            } catch {
                return
            }
        }
    }

    /// The leases as the next report gives them: active while running, completed with a result
    /// and a status once finished.
    func report() -> [RemoteWorkers.Lease] {
        state.withLock { state in
            var leases: [RemoteWorkers.Lease] = []
            for id in state.tasks.keys.sorted() {
                var lease = RemoteWorkers.Lease()
                lease.id = id
                lease.state = .active
                leases.append(lease)
            }
            for (id, outcome) in state.finished.sorted(by: { $0.key < $1.key }) {
                var lease = RemoteWorkers.Lease()
                lease.id = id
                lease.state = .completed
                switch outcome {
                case .ran(let result, let timedOut):
                    do {
                        lease.result = try Google_Protobuf_Any(message: result)
                        lease.status.code = timedOut ? GRPCStatus.deadlineExceeded : GRPCStatus.ok
                        if timedOut { lease.status.message = "the action ran past its timeout" }
                    } catch {
                        lease.status.code = GRPCStatus.unavailable
                        lease.status.message = "cannot pack the action's result: \(error)"
                    }
                case .botFailed(let reason):
                    // UNAVAILABLE: the scheduler gives the action to another bot.
                    lease.status.code = GRPCStatus.unavailable
                    lease.status.message = reason
                }
                leases.append(lease)
                state.reported.insert(id)
            }
            return leases
        }
    }

    /// Forgets the finished leases the last report carried: the server has them.
    func forgetReported() {
        state.withLock { state in
            for id in state.reported { state.finished[id] = nil }
            state.reported = []
        }
    }
}

import HeadlessUI
import Synchronization

/// Runs `body` with misuse reports collected instead of logged, and returns them.
@MainActor
func capturingMisuse(_ body: () -> Void) -> [UIMisuse] {
    let reports = Mutex<[UIMisuse]>([])
    HeadlessUIDiagnostics.$misuseHandler.withValue({ misuse in reports.withLock { $0.append(misuse) } }) {
        body()
    }
    return reports.withLock { $0 }
}

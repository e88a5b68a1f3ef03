import Foundation
import Testing

/// Removes a folder a test made; one that cannot be removed is recorded as an issue of the
/// running test, so a leak into the temporary folder shows where it happens.
func removeRecordingFailure(_ folder: URL) {
    do {
        try FileManager.default.removeItem(at: folder)
    } catch {
        Issue.record("could not remove \(folder.path): \(error)")
    }
}

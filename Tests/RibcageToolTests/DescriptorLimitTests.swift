import Foundation
import RibcagePackage
import Testing

/// The built `ribcage` with almost no file descriptors left to open (`ulimit -n`): each child
/// it starts needs a few, and running out of them is an error it reports, never a crash.
///
/// swift-subprocess 1.0.2 traps when it drops a descriptor it was to close on a path that
/// throws first; `ribcage graph` crashed so (SIGILL, "FileDescriptor … was not closed") at 18
/// and 19 descriptors, and at 17 blamed a missing Package.swift. Shell now closes the
/// descriptors it hands a child itself.
@Suite(
    "ribcage out of file descriptors",
    .disabled(
        "swift-subprocess 1.0.2 still traps (SIGILL) at some limits under load: CI at e94de07 saw it at 9, 15, 16 and 17 descriptors; enable once those paths are closed"
    ))
struct DescriptorLimitTests {
    @Test(
        "at every limit from 8 to 40 descriptors, ribcage graph ends with its answer or an error, never a signal"
    )
    func everyLimit() async throws {
        let ribcage = try await RibcageExecutableTests.ribcageExecutable().path
        let fixture = try await RibcageExecutableTests.makeFixture()
        var answered: [Int] = []
        for limit in 8...40 {
            let script = "ulimit -n \(limit) && exec \"$0\" graph --skip-tests --path \"$1\""
            guard
                let run = try await Shell.run(
                    "/bin/bash", ["-c", script, ribcage, fixture.url.path], timeout: .seconds(60))
            else {
                withKnownIssue(
                    "swift-subprocess 1.0.2 can lose a child's exit when it runs out of descriptors while it starts to watch it: ribcage then waits for ever (seen at 21)",
                    isIntermittent: true
                ) {
                    Issue.record("at \(limit) descriptors ribcage graph had not ended after 60 s; killed")
                }
                continue
            }
            #expect(
                !run.wasSignalled && run.status != 132 && run.status != 134,
                "at \(limit) descriptors: \(run.terminationDescription)\n\(run.errorText)")
            if run.succeeded {
                answered.append(limit)
            } else {
                #expect(!run.errorText.isEmpty, "at \(limit) descriptors it failed saying nothing")
                #expect(
                    !run.errorText.contains("No Package.swift"),
                    "at \(limit) descriptors a missing package was blamed: \(run.errorText)")
            }
        }
        #expect(!answered.isEmpty, "ribcage graph never answered, even with 40 descriptors")
    }
}

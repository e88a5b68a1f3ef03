import ArgumentParser
import RIBs

/// `bench ribs`: attach, activate, detach and deactivate cost of RIBs, against allocating the
/// same objects without attaching them.
struct RIBsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ribs",
        abstract: "Attach/detach of 100,000 leaf RIBs and of a 10-level tree; memory after 10 rounds.")

    @Option(help: "Leaf RIBs per round.")
    var leaves = 100_000

    @Option(help: "Levels of the binary tree (2^levels - 1 RIBs).")
    var levels = 10

    @Option(help: "Repetitions; the median is reported.")
    var repetitions = 5

    @MainActor
    func run() async throws {
        #if DEBUG
            print("warning: this is a debug build; run `swift run -c release bench ribs` for real figures.")
        #endif
        // Leak checks are part of what a detach costs, but a benchmark must not assert on them.
        LeakDetector.setInstance(LeakDetector(reportsLeaksAsAssertions: false))
        let leafCount = leaves

        print("RIBs benchmark: median of \(repetitions) runs\n")

        // 1. Leaf RIBs: attach to an active root, then detach, then release.
        let allocateLeaves = Measurement.median(repetitions: repetitions) {
            var routers = (0..<leafCount).map { _ in Router(interactor: Interactor()) }
            routers.removeAll()
        }
        let attachLeaves = Measurement.median(repetitions: repetitions) {
            let root = Router(interactor: Interactor())
            root.interactable.activate()
            root.load()
            var routers = (0..<leafCount).map { _ in Router(interactor: Interactor()) }
            for router in routers { root.attachChild(router) }
            for router in routers { root.detachChild(router) }
            routers.removeAll()
        }
        await LeakDetector.instance.waitUntilComplete()
        let leafOperations = Double(leafCount * 4)  // attach + activate + detach + deactivate
        print("\(Measurement.grouped(Double(leafCount))) leaf RIBs")
        print("  allocate and release only:        \(Measurement.milliseconds(allocateLeaves))")
        print("  allocate, attach, detach, release: \(Measurement.milliseconds(attachLeaves))")
        print(
            "  \(Measurement.grouped(leafOperations / attachLeaves)) operations/s "
                + "(attach, activate, detach, deactivate); "
                + "\(Measurement.ratio(attachLeaves / allocateLeaves)) the time of allocation alone")

        // 2. A 10-level binary tree attached and detached under an active root: every cycle
        // activates and deactivates the whole subtree through the cascade.
        let nodeCount = (1 << levels) - 1
        let cycles = max(1, leafCount / nodeCount)
        let allocateTree = Measurement.median(repetitions: repetitions) {
            for _ in 0..<cycles {
                var routers = (0..<nodeCount).map { _ in Router(interactor: Interactor()) }
                routers.removeAll()
            }
        }
        let attachTree = Measurement.median(repetitions: repetitions) {
            let root = Router(interactor: Interactor())
            root.interactable.activate()
            root.load()
            for _ in 0..<cycles {
                let tree = makeTree(levels: levels)
                root.attachChild(tree)
                root.detachChild(tree)
            }
        }
        await LeakDetector.instance.waitUntilComplete()
        let treeActivations = Double(cycles * nodeCount * 2)
        print("\n\(levels)-level tree (\(Measurement.grouped(Double(nodeCount))) RIBs), \(cycles) cycles")
        print("  allocate and release the RIBs only:              \(Measurement.milliseconds(allocateTree))")
        print("  build the tree, attach, detach (cascade), release: \(Measurement.milliseconds(attachTree))")
        print(
            "  \(Measurement.grouped(treeActivations / attachTree)) RIB activations+deactivations/s; "
                + "\(Measurement.ratio(attachTree / allocateTree)) the time of allocation alone")

        // 3. Memory: 10 rounds of attach and detach must leave the heap where it started.
        let root = Router(interactor: Interactor())
        root.interactable.activate()
        root.load()
        await LeakDetector.instance.waitUntilComplete()
        let baseline = Measurement.allocatedBytes()
        for _ in 0..<10 {
            var routers = (0..<leafCount).map { _ in Router(interactor: Interactor()) }
            for router in routers { root.attachChild(router) }
            for router in routers { root.detachChild(router) }
            routers.removeAll()
        }
        let afterRounds = Measurement.allocatedBytes()
        await LeakDetector.instance.waitUntilComplete()
        let afterChecks = Measurement.allocatedBytes()
        print(
            "\nMemory (malloc in use), 10 rounds of \(Measurement.grouped(Double(leafCount))) attach+detach")
        print("  baseline:                        \(Measurement.grouped(Double(baseline) / 1024)) KiB")
        print(
            "  after the rounds:                \(Measurement.grouped(Double(afterRounds) / 1024)) KiB (leak checks pending)"
        )
        print("  after the leak checks completed: \(Measurement.grouped(Double(afterChecks) / 1024)) KiB")
        let growth = afterChecks - baseline
        print(
            "  growth: \(Measurement.grouped(Double(growth) / 1024)) KiB; leaks reported: \(LeakDetector.instance.leaks.count)"
        )
    }

    @MainActor
    private func makeTree(levels: Int) -> Router<Interactor> {
        let node = Router(interactor: Interactor())
        if levels > 1 {
            node.attachChild(makeTree(levels: levels - 1))
            node.attachChild(makeTree(levels: levels - 1))
        }
        return node
    }
}

import ArgumentParser
import Foundation
import RibcageBuild
import RibcageGraph
import RibcagePackage

/// `ribcage build`: builds modules one by one and reports each one's own time.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build modules, each with what it needs, and print a row per module.",
        discussion: """
            Builds the named modules (and every target they need), or all of the package's \
            modules, or with --affected the ones a change touched and their dependents. Each \
            module is built by its own `swift build --target` after its dependencies, so its \
            time is its own; the modules of other packages' products come first.

            Prints a row per module with its time and whether it was built or up to date, and \
            the closing line `N built, N up to date, N failed`. A failed module shows the \
            compiler's first errors (file:line:column) and the modules it blocked, which are \
            not attempted. Exits 2 when a module failed.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    enum Configuration: String, ExpressibleByArgument, CaseIterable {
        case debug, release
    }

    @Argument(help: "Modules to build, by target name. Default: every module that is not a test.")
    var modules: [String] = []

    @OptionGroup var package: PackageOptions

    @Flag(help: "Build only the modules changed since --base, and every module that depends on them.")
    var affected = false

    @Option(help: "With --affected: the git revision to compare against (default: HEAD).")
    var base = "HEAD"

    @Option(name: [.customShort("c"), .long], help: "debug or release.")
    var configuration: Configuration = .debug

    @Flag(help: "Also print each module's own compile time, slowest first, and the critical path.")
    var timings = false

    @Option(help: "text or json (json holds the timings and the critical path).")
    var format: Format = .text

    @Flag(help: "Stream each step's SwiftPM output to standard error.")
    var verbose = false

    func run() async throws {
        var report: BuildReport?
        try await RibcageError.reported {
            let root = try package.root()
            let loaded = try await PackageLoader.load(packageAt: root, note: StandardError.writeLine)
            var chosen = modules
            if affected {
                let changed = try await ChangeImpact.changedFiles(in: root, since: base)
                let selection = BuildPlan.affectedModules(package: loaded, changedFiles: changed)
                let named = Set(modules)
                let picked = selection.filter { named.isEmpty || named.contains($0.module) }
                for (module, reason) in picked { StandardError.write("\(module): \(reason)\n") }
                if picked.isEmpty {
                    StandardError.write("Nothing changed since \(base) affects a module.\n")
                    if format == .text { print("0 built, 0 up to date, 0 failed") }
                    return
                }
                chosen = picked.map(\.module)
            }
            let plan = try BuildPlan(
                package: loaded, modules: chosen,
                productModules: await Self.productModules(of: loaded, root: root))
            let showLog: (@Sendable (String) -> Void)? = verbose ? StandardError.write : nil
            let builder = ModuleBuilder(
                packageRoot: root, configuration: configuration.rawValue, showLog: showLog)
            let showRows = format == .text
            if showRows {
                StandardError.write("Building \(plan.steps.count) modules one by one (\(configuration))…\n")
            }
            let results = try await builder.build(plan) { result in
                // Progress goes to standard error as it happens; the table is printed at the end,
                // with its columns sized to every row.
                if showRows {
                    StandardError.write("  \(result.name): \(result.status.rawValue)\n")
                }
            }
            report = BuildReport(configuration: configuration.rawValue, plan: plan, results: results)
        }
        guard let report else { return }
        switch format {
        case .text:
            print(report.table, terminator: "")
            print(report.failures, terminator: "")
            if timings { print(report.timings, terminator: "") }
            print(report.closingLine)
        case .json:
            print(try report.json())
        }
        if report.failed { throw ExitCode(2) }
    }

    /// The modules of each external product the package uses, read from the dependencies'
    /// checkouts; a product not found there is taken to be the module of its name.
    private static func productModules(of package: DescribedPackage, root: URL) async throws -> [String:
        [String]]
    {
        let known = try await DependencyProducts.modules(root: root, identities: nil)
        var modules: [String: [String]] = [:]
        for dependency in package.targets.flatMap(\.dependencies) {
            guard let identity = dependency.package?.lowercased(),
                let inside = known["\(identity)/\(dependency.name)"], !inside.isEmpty
            else { continue }
            modules[dependency.name] = inside
        }
        return modules
    }
}

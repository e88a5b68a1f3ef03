extension Linter {
    /// (h) Each test target Project.swift.md's "Untraced test targets" table lists is a test
    /// target of the package: a renamed suite would otherwise be traced again, silently.
    func untracedChecks() -> [Diagnostic] {
        guard let manifest else { return [] }
        let testTargets = Set(package.targets.filter(\.isTest).map(\.name))
        return manifest.untracedTestTargets.filter { !testTargets.contains($0) }.map { name in
            Diagnostic(
                file: "Project.swift.md", line: 1, severity: .error, rule: "untraced",
                message:
                    "'\(name)' is in the Untraced test targets table but is not a test target of the package")
        }
    }

    /// (h) The same for the "Local-only test targets" table: a renamed suite would otherwise be
    /// sent to the worker it was kept from.
    func localOnlyChecks() -> [Diagnostic] {
        guard let manifest else { return [] }
        let testTargets = Set(package.targets.filter(\.isTest).map(\.name))
        return manifest.localOnlyTestTargets.keys.sorted().filter { !testTargets.contains($0) }.map { name in
            Diagnostic(
                file: "Project.swift.md", line: 1, severity: .error, rule: "local-only",
                message:
                    "'\(name)' is in the Local-only test targets table but is not a test target of the package"
            )
        }
    }
}

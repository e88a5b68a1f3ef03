extension Linter {
    /// (g) Each module's Role in Project.swift.md is what Package.swift exports: a library
    /// product of its name for a library, an executable product of the named name for an
    /// executable, and no product at all for test support or a C shim, so that another package
    /// can never come to depend on this package's test plumbing.
    func roleChecks() -> [Diagnostic] {
        guard let manifest else { return [] }
        let targets = Set(package.targets.map(\.name))
        var found: [Diagnostic] = []
        func report(_ message: String) {
            found.append(
                Diagnostic(
                    file: "Project.swift.md", line: 1, severity: .error, rule: "roles", message: message))
        }
        for row in manifest.modules where targets.contains(row.name) {
            guard let role = row.role else {
                report(
                    "'\(row.name)': unknown role '\(row.roleCell)' (library, test support, C shim or executable NAME)"
                )
                continue
            }
            let exporting = package.products.filter { $0.targets.contains(row.name) }
            switch role {
            case .library:
                if !exporting.contains(where: { $0.type == "library" && $0.name == row.name }) {
                    report(
                        "'\(row.name)' is a library in Project.swift.md, but Package.swift has no library product '\(row.name)'"
                    )
                }
            case .executable(let name):
                if !exporting.contains(where: { $0.type == "executable" && $0.name == name }) {
                    report(
                        "'\(row.name)' is executable \(name) in Project.swift.md, but Package.swift has no executable product '\(name)' of it"
                    )
                }
            case .testSupport, .cShim:
                for product in exporting {
                    report(
                        "'\(row.name)' is \(role.cell) in Project.swift.md, so no product may export it, but Package.swift's \(product.type) product '\(product.name)' does"
                    )
                }
            }
        }
        return found
    }
}

import Foundation

extension DescribedPackage {
    /// Reads the package with `swift package describe`, or — when that cannot run, typically
    /// because dependencies cannot be resolved — with `swift package dump-package`, which needs
    /// no resolution, saying so on standard error. The fallback lacks source lists, so import
    /// checks see no sources.
    public static func load(packageAt root: URL) throws -> DescribedPackage {
        do {
            return try describe(packageAt: root)
        } catch let describeError as RibcageError {
            let dump = try Shell.run("swift", ["package", "dump-package"], in: root)
            guard dump.succeeded, let package = try? fromDump(dump.standardOutput, root: root) else {
                throw describeError
            }
            FileHandle.standardError.write(
                Data(
                    "note: `swift package describe` failed, so the package was read with `swift package dump-package`, which cannot tell a target from a product by name alone and lists no sources.\n"
                        .utf8))
            return package
        }
    }

    /// Converts `swift package dump-package` JSON.
    static func fromDump(_ data: Data, root: URL) throws -> DescribedPackage {
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let targets = json["targets"] as? [[String: Any]]
        else {
            throw RibcageError.manifestUnreadable(path: root.path, details: "unexpected dump-package JSON")
        }
        let names = Set(targets.compactMap { $0["name"] as? String })
        let converted: [Target] = targets.compactMap { target in
            guard let name = target["name"] as? String, let kind = target["type"] as? String else {
                return nil
            }
            var targetDependencies: [String] = []
            var productDependencies: [String] = []
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                if let byName = (dependency["byName"] as? [Any])?.first as? String {
                    // Without resolution, a name is a target if the package has one by that name.
                    if names.contains(byName) {
                        targetDependencies.append(byName)
                    } else {
                        productDependencies.append(byName)
                    }
                } else if let target = (dependency["target"] as? [Any])?.first as? String {
                    targetDependencies.append(target)
                } else if let product = (dependency["product"] as? [Any])?.first as? String {
                    productDependencies.append(product)
                }
            }
            let type =
                switch kind {
                case "regular": "library"
                case "system": "system-target"
                default: kind
                }
            let defaultPath = kind == "test" ? "Tests/\(name)" : "Sources/\(name)"
            return Target(
                name: name, type: type, path: target["path"] as? String ?? defaultPath,
                targetDependencies: targetDependencies, productDependencies: productDependencies)
        }
        return DescribedPackage(
            name: json["name"] as? String ?? root.lastPathComponent, path: root.path, targets: converted)
    }
}

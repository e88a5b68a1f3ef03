// swift-tools-version: 6.2
//
// The Ribcage workspace manifest.
//
// Every module is one line in `modules` below. The rest of this file turns that table into
// targets and products, so adding a module never means copying a block of targets: a module's
// role decides its folder and whether it is a product (test support and C shims are not), and a
// test target gets its module and the module's dependencies, plus what only the tests need.
// `Project.swift.md` describes the same table in prose; `ribcage lint` keeps the two in step.

import PackageDescription

// MARK: - The module table (one line per module; `ribcage new` appends here)

let modules: [Module] = [
    .module("And", layer: .core),
    .module("BlockingWork", layer: .core),
    .module("RIBs", layer: .core),
    .module("Reactor", layer: .core, dependencies: ["RIBs"]),
    .module(
        "LocalProvider", layer: .core, dependencies: [.systemPackage], testDependencies: [.subprocess]),
    .module("ConstraintSolver", layer: .core, testDependencies: ["ConstraintSolverTesting"]),
    .testSupport(
        "ConstraintSolverTesting", layer: .core, dependencies: [.subprocess], exclude: ["kiwi_oracle.py"]),
    .module(
        "Layout", layer: .core, dependencies: ["ConstraintSolver", .log],
        testDependencies: ["LayoutDSL", "ConstraintSolverTesting"]),
    .module("LayoutDSL", layer: .core, dependencies: ["Layout"]),
    .module("Images", layer: .core, dependencies: ["CJPEG", "CPNG"], testExclude: ["Images"]),
    .module("TerminalCore", layer: .core, dependencies: ["Images"]),
    .module(
        "HeadlessUI", layer: .core, dependencies: ["Layout", "LayoutDSL", "Images", "TerminalCore", .log],
        testDependencies: ["HeadlessUITesting"], testExclude: ["Snapshots", "Images"]),
    .module(
        "TerminalRuntime", layer: .core, dependencies: ["HeadlessUI", "TerminalCore", "Layout", "Images"],
        testDependencies: ["HeadlessUITesting", "LayoutDSL"], testExclude: ["Snapshots", "Images"]),
    .module(
        "DeclarativeUI", layer: .core,
        dependencies: ["HeadlessUI", "TerminalCore", "Layout", "LayoutDSL", "Images"],
        testDependencies: ["HeadlessUITesting"], testExclude: ["Snapshots"]),
    .testSupport(
        "HeadlessUITesting", layer: .core,
        dependencies: ["HeadlessUI", "TerminalCore", "TerminalRuntime", "Layout"]),
    .module(
        "RIBsHeadlessUI", layer: .core, dependencies: ["RIBs", "HeadlessUI"], testDependencies: ["Layout"]),
    .testSupport("HTTPTestServer", layer: .core),
    .systemLibrary("CCurl", pkgConfig: "libcurl", apt: ["libcurl4-openssl-dev"]),
    .systemLibrary("CJPEG", pkgConfig: "libjpeg", apt: ["libjpeg62-turbo-dev"]),
    .systemLibrary("CPNG", pkgConfig: "libpng", apt: ["libpng-dev"]),
    .module(
        "NetworkProvider", layer: .core, dependencies: [.log, "CCurl"],
        testDependencies: ["HTTPTestServer", "NetworkProviderAsyncHTTPClient", .subprocess, .systemPackage]),
    .module(
        "NetworkProviderAsyncHTTPClient", layer: .core,
        dependencies: [
            "NetworkProvider", .log, .asyncHTTPClient, .nioCore, .nioPosix, .nioHTTP1, .nioHTTPCompression,
        ],
        tests: false),
    .module("Domain", layer: .domain, testDependencies: ["DomainTesting"]),
    .testSupport("DomainTesting", layer: .domain, dependencies: ["Domain"]),
    .module(
        "Data", layer: .data, dependencies: ["Domain", "NetworkProvider", "LocalProvider", "BlockingWork"],
        testDependencies: ["HTTPTestServer"]),
    .feature(
        "AddTodo",
        dependencies: [
            "RIBs", "Domain", "Layout", "LayoutDSL", "HeadlessUI", "TerminalCore", "RIBsHeadlessUI",
        ]),
    .feature(
        "Todo",
        dependencies: [
            "RIBs", "Reactor", "Domain", "Layout", "LayoutDSL", "HeadlessUI", "TerminalCore",
            "RIBsHeadlessUI", "AddTodo",
        ],
        testDependencies: ["DomainTesting"]),
    .feature(
        "Profile",
        dependencies: [
            "RIBs", "Reactor", "Domain", "Layout", "Images", "HeadlessUI", "TerminalCore", "RIBsHeadlessUI",
        ],
        testDependencies: ["DomainTesting", "HeadlessUITesting"]),
    .feature(
        "Root",
        dependencies: [
            "RIBs", "Reactor", "Domain", "HeadlessUI", "TerminalCore", "RIBsHeadlessUI", "Todo", "Profile",
        ],
        testDependencies: ["DomainTesting", "Layout"]),
    .app(
        "TodoAppCore",
        dependencies: [
            .argumentParser, "RIBs", "Reactor", "Domain", "Data", "LocalProvider", "NetworkProvider",
            "Layout", "LayoutDSL", "HeadlessUI", "TerminalCore", "TerminalRuntime", "RIBsHeadlessUI", "Root",
            "Todo", "AddTodo", "Profile", "BlockingWork",
        ],
        testDependencies: [
            "HTTPTestServer", "HeadlessUITesting", "DomainTesting", "TodoAppTesting", .subprocess,
            .systemPackage,
        ],
        testExclude: ["Snapshots", "Images"],
        exclude: ["Samples/make_placeholders.py", "Samples/SOURCES.md"],
        resources: [
            .copy("Samples/cat-chelsea.png"), .copy("Samples/placeholder-cat.png"),
            .copy("Samples/placeholder-dog.png"),
        ]),
    .app("TodoAppDog", product: "TodoAppDog", dependencies: ["TodoAppCore"], tests: false),
    .app("TodoAppCat", product: "TodoAppCat", dependencies: ["TodoAppCore"], tests: false),
    .testSupport(
        "TodoAppTesting", layer: .app,
        dependencies: ["Domain", "Data", "LocalProvider", "HeadlessUI", "TerminalCore", "Root"]),
    .tool("RibcagePackage", dependencies: ["BlockingWork", .subprocess, .systemPackage], tests: false),
    .tool("RibcageGraph", dependencies: ["RibcagePackage"], tests: false),
    .tool("ContentDigest", tests: false),
    .tool(
        "RibcageTesting",
        dependencies: ["BlockingWork", "ContentDigest", "RemoteExecution", "RibcagePackage", "RibcageGraph"],
        tests: false),
    .tool(
        "RibcageLint",
        dependencies: [
            "BlockingWork", "RibcagePackage", .swiftSyntax, .swiftParser, .swiftIfConfig, .swiftDiagnostics,
        ],
        tests: false),
    .tool(
        "RibcageScaffold",
        dependencies: ["BlockingWork", "RibcagePackage", "RibcageLint", .swiftSyntax, .swiftParser],
        tests: false),
    .tool("RibcageBuild", dependencies: ["RibcagePackage", "RibcageGraph"], tests: false),
    .tool(
        "RibcageTool",
        dependencies: [
            "BlockingWork", .argumentParser, "RibcagePackage", "RibcageGraph", "RibcageTesting",
            "RemoteExecution", "RibcageLint",
            "RibcageScaffold", "RibcageBuild",
        ],
        testDependencies: ["ContentDigest", .systemPackage]),
    .tool("Ribcage", product: "ribcage", dependencies: ["RibcageTool"], tests: false),
    .tool(
        "RemoteExecution",
        dependencies: [
            "BlockingWork", "ContentDigest", .swiftProtobuf, .nioCore, .nioPosix, .nioHTTP2, .nioHPACK,
        ],
        testDependencies: [
            .swiftProtobuf, .nioCore, .nioPosix, .nioHPACK, .subprocess, .systemPackage, "RibcagePackage",
            "RibcageTesting",
        ]),
    .cShim("CMallocStats", layer: .tool),
    .tool("StorageProbe", product: "storage-probe", dependencies: ["LocalProvider"], tests: false),
    .tool("NetworkProbe", product: "network-probe", dependencies: ["NetworkProvider"], tests: false),
    .tool(
        "HeadlessUIDemo", product: "headlessui-demo",
        dependencies: ["HeadlessUI", "TerminalCore", "TerminalRuntime", "Layout", "LayoutDSL"],
        tests: false),
    .tool(
        "Benchmarks", product: "bench",
        dependencies: [
            .argumentParser, "BlockingWork", "CMallocStats", "RIBs", "LocalProvider", "NetworkProvider",
            "HTTPTestServer", "ConstraintSolver", "Layout", "LayoutDSL", "RibcagePackage", "RibcageGraph",
            "RibcageTesting", "RibcageLint", "RemoteExecution", "Images", "HeadlessUI", "TerminalCore",
            "TerminalRuntime",
            "HeadlessUITesting", "DeclarativeUI", "Domain", "Data", "Reactor", "Root", .subprocess,
            .systemPackage,
            "NetworkProviderAsyncHTTPClient", .asyncHTTPClient, .nioCore, .histogram, "TodoAppTesting",
        ],
        tests: false, exclude: ["kiwi_layout_bench.py"]),
]

// MARK: - External packages

let externalPackages: [Package.Dependency] = [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "602.0.0"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
    .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
]

extension Target.Dependency {
    static let argumentParser = Target.Dependency.product(
        name: "ArgumentParser", package: "swift-argument-parser")
    static let log = Target.Dependency.product(name: "Logging", package: "swift-log")
    static let subprocess = Target.Dependency.product(name: "Subprocess", package: "swift-subprocess")
    static let systemPackage = Target.Dependency.product(name: "SystemPackage", package: "swift-system")
    static let swiftSyntax = Target.Dependency.product(name: "SwiftSyntax", package: "swift-syntax")
    static let swiftParser = Target.Dependency.product(name: "SwiftParser", package: "swift-syntax")
    static let swiftIfConfig = Target.Dependency.product(name: "SwiftIfConfig", package: "swift-syntax")
    static let swiftDiagnostics = Target.Dependency.product(name: "SwiftDiagnostics", package: "swift-syntax")
    static let asyncHTTPClient = Target.Dependency.product(
        name: "AsyncHTTPClient", package: "async-http-client")
    static let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
    static let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
    static let nioHTTP1 = Target.Dependency.product(name: "NIOHTTP1", package: "swift-nio")
    static let nioHTTPCompression = Target.Dependency.product(
        name: "NIOHTTPCompression", package: "swift-nio-extras")
    static let histogram = Target.Dependency.product(name: "Histogram", package: "hdrhistogram-swift")
    static let nioHTTP2 = Target.Dependency.product(name: "NIOHTTP2", package: "swift-nio-http2")
    static let nioHPACK = Target.Dependency.product(name: "NIOHPACK", package: "swift-nio-http2")
    static let swiftProtobuf = Target.Dependency.product(name: "SwiftProtobuf", package: "swift-protobuf")
}

// MARK: - How a table row becomes targets

/// One row of the module table.
struct Module {
    /// Where a module sits in the architecture; with its role, it decides the module's folder.
    enum Layer {
        case core, domain, data, feature, app, tool
    }

    /// What a module is for: it decides whether the package exports it, and its folder.
    enum Role {
        /// Code other packages may use: a library product.
        case library
        /// Helpers for this package's tests and benchmarks, under `<layer folder>/TestSupport`:
        /// no product, so no other package comes to depend on them.
        case testSupport
        /// A C library of the system (pkg-config) or a few C sources, under
        /// `<layer folder>/Shims`: imported by our modules, never a product.
        case cShim
        /// A program: an executable product of this name.
        case executable(String)
    }

    var name: String
    var layer: Layer
    var role: Role
    var dependencies: [Target.Dependency]
    var hasTests: Bool
    /// What the test target needs beyond the module and the module's own dependencies.
    var testDependencies: [Target.Dependency]
    /// Files in the test folder that are not Swift sources (helper scripts).
    var testExclude: [String] = []
    /// Files in the module's folder that are not sources (helper scripts).
    var exclude: [String] = []
    /// Files in the module's folder bundled with it (`Bundle.module`).
    var resources: [Resource] = []
    /// For a system library: its pkg-config name and the Debian packages that provide it.
    var systemLibrary: (pkgConfig: String, apt: [String])? = nil

    /// A C library of the system, found with pkg-config, under `Modules/Shims/<Name>`.
    static func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Module {
        Module(
            name: name, layer: .core, role: .cShim, dependencies: [], hasTests: false, testDependencies: [],
            systemLibrary: (pkgConfig, apt))
    }

    /// A target of C sources with a public header folder, under `<layer folder>/Shims/<Name>`.
    static func cShim(_ name: String, layer: Layer) -> Module {
        Module(
            name: name, layer: layer, role: .cShim, dependencies: [], hasTests: false, testDependencies: [])
    }

    /// A library in the core, domain or data layer.
    static func module(
        _ name: String, layer: Layer, dependencies: [Target.Dependency] = [],
        tests: Bool = true, testDependencies: [Target.Dependency] = [], testExclude: [String] = []
    ) -> Module {
        Module(
            name: name, layer: layer, role: .library, dependencies: dependencies, hasTests: tests,
            testDependencies: testDependencies, testExclude: testExclude)
    }

    /// Test support of a layer, under `<layer folder>/TestSupport/<Name>`, with no tests of its own.
    static func testSupport(
        _ name: String, layer: Layer, dependencies: [Target.Dependency] = [], exclude: [String] = []
    ) -> Module {
        Module(
            name: name, layer: layer, role: .testSupport, dependencies: dependencies, hasTests: false,
            testDependencies: [], exclude: exclude)
    }

    /// A feature RIB, under `Modules/Features/`.
    static func feature(
        _ name: String, dependencies: [Target.Dependency] = [], testDependencies: [Target.Dependency] = []
    ) -> Module {
        Module(
            name: name, layer: .feature, role: .library, dependencies: dependencies, hasTests: true,
            testDependencies: testDependencies)
    }

    /// An app target under `Apps/`: a library, or an executable when `product` is given.
    static func app(
        _ name: String, product: String? = nil, dependencies: [Target.Dependency] = [],
        tests: Bool = true, testDependencies: [Target.Dependency] = [], testExclude: [String] = [],
        exclude: [String] = [], resources: [Resource] = []
    ) -> Module {
        Module(
            name: name, layer: .app, role: product.map(Role.executable) ?? .library,
            dependencies: dependencies,
            hasTests: tests, testDependencies: testDependencies, testExclude: testExclude, exclude: exclude,
            resources: resources)
    }

    /// A tool target under `Tools/`: a library, or an executable when `product` is given.
    static func tool(
        _ name: String, product: String? = nil, dependencies: [Target.Dependency] = [],
        tests: Bool = true, testDependencies: [Target.Dependency] = [], exclude: [String] = []
    ) -> Module {
        Module(
            name: name, layer: .tool, role: product.map(Role.executable) ?? .library,
            dependencies: dependencies,
            hasTests: tests, testDependencies: testDependencies, exclude: exclude)
    }

    var path: String {
        let layerFolder =
            switch layer {
            case .core, .domain, .data: "Modules"
            case .feature: "Modules/Features"
            case .app: "Apps"
            case .tool: "Tools"
            }
        switch role {
        case .library, .executable: return "\(layerFolder)/\(name)"
        case .testSupport: return "\(layerFolder)/TestSupport/\(name)"
        case .cShim: return "\(layerFolder)/Shims/\(name)"
        }
    }

    var testTargetName: String { "\(name)Tests" }

    /// The test target's dependencies: the module, what the module depends on (a test uses the
    /// module's types, built from those), then what only the tests need, each once.
    var allTestDependencies: [Target.Dependency] {
        var seen: Set<String> = []
        return ([.target(name: name)] + dependencies + testDependencies).filter {
            seen.insert(String(describing: $0)).inserted
        }
    }

    var targets: [Target] {
        if let systemLibrary {
            return [
                .systemLibrary(
                    name: name, path: path, pkgConfig: systemLibrary.pkgConfig,
                    providers: [.apt(systemLibrary.apt)])
            ]
        }
        var result: [Target] = []
        if case .executable = role {
            result.append(
                .executableTarget(
                    name: name, dependencies: dependencies, path: path, exclude: exclude,
                    swiftSettings: swiftSettings))
        } else {
            result.append(
                .target(
                    name: name, dependencies: dependencies, path: path, exclude: exclude,
                    resources: resources, swiftSettings: swiftSettings))
        }
        if hasTests {
            result.append(
                .testTarget(
                    name: testTargetName,
                    dependencies: allTestDependencies,
                    path: "Tests/\(testTargetName)",
                    exclude: testExclude,
                    swiftSettings: swiftSettings))
        }
        return result
    }

    /// Only libraries and executables are offered to other packages.
    var product: Product? {
        switch role {
        case .library: .library(name: name, targets: [name])
        case .executable(let product): .executable(name: product, targets: [name])
        case .testSupport, .cShim: nil
        }
    }
}

/// Our own code builds with zero warnings; SwiftPM ignores this setting for packages
/// that depend on us, so it never breaks a user's build.
let swiftSettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error)
]

let package = Package(
    name: "Ribcage",
    products: modules.compactMap(\.product),
    dependencies: externalPackages,
    targets: modules.flatMap(\.targets),
    swiftLanguageModes: [.v6]
)

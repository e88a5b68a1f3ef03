// swift-tools-version: 6.2
//
// The Ribcage workspace manifest.
//
// Every module is one line in `modules` below. The rest of this file turns that table into
// targets and products, so adding a module never means copying a block of targets.
// `Project.swift.md` describes the same table in prose; `ribcage lint` keeps the two in step.

import PackageDescription

// MARK: - The module table (one line per module; `ribcage new` appends here)

let modules: [Module] = [
    .module("And", layer: .core),
    .module("RIBs", layer: .core),
    .module("Reactor", layer: .core, dependencies: ["RIBs"], testDependencies: ["RIBs"]),
    .module(
        "LocalProvider", layer: .core, dependencies: [.systemPackage],
        testDependencies: [.subprocess, .systemPackage]),
    .module(
        "Layout", layer: .core, dependencies: [.log], testDependencies: [.subprocess],
        testExclude: ["kiwi_oracle.py"]),
    .module(
        "HeadlessUI", layer: .core, dependencies: ["Layout", .log, "CJPEG", "CPNG"],
        testDependencies: ["Layout", "HeadlessUITesting"],
        testExclude: ["Snapshots", "Images"]),
    .module(
        "DeclarativeUI", layer: .core, dependencies: ["HeadlessUI", "Layout"],
        testDependencies: ["HeadlessUI", "Layout", "HeadlessUITesting"], testExclude: ["Snapshots"]),
    .module("HeadlessUITesting", layer: .core, dependencies: ["HeadlessUI", "Layout"], tests: false),
    .module(
        "RIBsHeadlessUI", layer: .core, dependencies: ["RIBs", "HeadlessUI"],
        testDependencies: ["RIBs", "HeadlessUI", "Layout"]),
    .module("HTTPTestServer", layer: .core, tests: false),
    .systemLibrary("CCurl", pkgConfig: "libcurl", apt: ["libcurl4-openssl-dev"]),
    .systemLibrary("CJPEG", pkgConfig: "libjpeg", apt: ["libjpeg62-turbo-dev"]),
    .systemLibrary("CPNG", pkgConfig: "libpng", apt: ["libpng-dev"]),
    .module(
        "NetworkProvider", layer: .core, dependencies: [.log, "CCurl"],
        testDependencies: [
            "HTTPTestServer", .log, "NetworkProviderAsyncHTTPClient", .subprocess, .systemPackage,
        ]),
    .module(
        "NetworkProviderAsyncHTTPClient", layer: .core,
        dependencies: [
            "NetworkProvider", .log, .asyncHTTPClient, .nioCore, .nioPosix, .nioHTTP1, .nioHTTPCompression,
        ],
        tests: false),
    .module("Domain", layer: .domain, testDependencies: ["DomainTesting"]),
    .module("DomainTesting", layer: .domain, dependencies: ["Domain"], tests: false),
    .module(
        "Data", layer: .data, dependencies: ["Domain", "NetworkProvider", "LocalProvider"],
        testDependencies: ["Domain", "NetworkProvider", "LocalProvider", "HTTPTestServer"]),
    .feature(
        "AddTodo", dependencies: ["RIBs", "Domain", "Layout", "HeadlessUI", "RIBsHeadlessUI"],
        testDependencies: ["RIBs", "HeadlessUI", "Layout"]),
    .feature(
        "Todo",
        dependencies: ["RIBs", "Reactor", "Domain", "Layout", "HeadlessUI", "RIBsHeadlessUI", "AddTodo"],
        testDependencies: [
            "RIBs", "Reactor", "Domain", "DomainTesting", "Layout", "HeadlessUI", "RIBsHeadlessUI", "AddTodo",
        ]),
    .feature(
        "Profile",
        dependencies: [
            "RIBs", "Reactor", "Domain", "Layout", "HeadlessUI", "RIBsHeadlessUI",
        ],
        testDependencies: [
            "RIBs", "Reactor", "Domain", "DomainTesting", "Layout", "HeadlessUI", "HeadlessUITesting",
        ]),
    .feature(
        "Root",
        dependencies: ["RIBs", "Reactor", "Domain", "HeadlessUI", "RIBsHeadlessUI", "Todo", "Profile"],
        testDependencies: [
            "RIBs", "Reactor", "Domain", "DomainTesting", "Layout", "HeadlessUI", "RIBsHeadlessUI",
        ]),
    .app(
        "TodoAppCore",
        dependencies: [
            .argumentParser, "RIBs", "Reactor", "Domain", "Data", "LocalProvider", "NetworkProvider",
            "Layout", "HeadlessUI", "RIBsHeadlessUI", "Root", "Todo", "AddTodo", "Profile",
        ],
        testDependencies: [
            .argumentParser, "HTTPTestServer", "HeadlessUITesting", .subprocess, .systemPackage, "Domain",
            "DomainTesting", "Data", "LocalProvider", "HeadlessUI", "Layout", "RIBs", "Reactor", "Root",
            "TodoAppTesting",
        ],
        testExclude: ["Snapshots", "Images"],
        exclude: ["Samples/make_placeholders.py", "Samples/SOURCES.md"],
        resources: [
            .copy("Samples/cat-chelsea.png"), .copy("Samples/placeholder-cat.png"),
            .copy("Samples/placeholder-dog.png"),
        ]),
    .app("TodoAppDog", product: "TodoAppDog", dependencies: ["TodoAppCore"], tests: false),
    .app("TodoAppCat", product: "TodoAppCat", dependencies: ["TodoAppCore"], tests: false),
    .app(
        "TodoAppTesting", dependencies: ["Domain", "Data", "LocalProvider", "HeadlessUI", "Root"],
        tests: false),
    .tool(
        "RibcageTool",
        dependencies: [.argumentParser, .subprocess, .systemPackage, .swiftSyntax, .swiftParser]),
    .tool("Ribcage", product: "ribcage", dependencies: ["RibcageTool"], tests: false),
    .tool("CMallocStats", tests: false),
    .tool("StorageProbe", product: "storage-probe", dependencies: ["LocalProvider"], tests: false),
    .tool("NetworkProbe", product: "network-probe", dependencies: ["NetworkProvider"], tests: false),
    .tool(
        "HeadlessUIDemo", product: "headlessui-demo", dependencies: ["HeadlessUI", "Layout"], tests: false),
    .tool(
        "Benchmarks", product: "bench",
        dependencies: [
            .argumentParser, "CMallocStats", "RIBs", "LocalProvider", "NetworkProvider", "HTTPTestServer",
            "Layout", "RibcageTool", "HeadlessUI", "HeadlessUITesting", "DeclarativeUI", "Domain", "Data",
            "Reactor",
            "Root", .subprocess, .systemPackage, "NetworkProviderAsyncHTTPClient", .asyncHTTPClient, .nioCore,
            .histogram, "TodoAppTesting",
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
]

extension Target.Dependency {
    static let argumentParser = Target.Dependency.product(
        name: "ArgumentParser", package: "swift-argument-parser")
    static let log = Target.Dependency.product(name: "Logging", package: "swift-log")
    static let subprocess = Target.Dependency.product(name: "Subprocess", package: "swift-subprocess")
    static let systemPackage = Target.Dependency.product(name: "SystemPackage", package: "swift-system")
    static let swiftSyntax = Target.Dependency.product(name: "SwiftSyntax", package: "swift-syntax")
    static let swiftParser = Target.Dependency.product(name: "SwiftParser", package: "swift-syntax")
    static let asyncHTTPClient = Target.Dependency.product(
        name: "AsyncHTTPClient", package: "async-http-client")
    static let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
    static let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
    static let nioHTTP1 = Target.Dependency.product(name: "NIOHTTP1", package: "swift-nio")
    static let nioHTTPCompression = Target.Dependency.product(
        name: "NIOHTTPCompression", package: "swift-nio-extras")
    static let histogram = Target.Dependency.product(name: "Histogram", package: "hdrhistogram-swift")
}

// MARK: - How a table row becomes targets

/// One row of the module table.
struct Module {
    /// Where a module sits in the architecture; it also decides the module's folder.
    enum Layer {
        case core, domain, data, feature, app, tool
    }

    var name: String
    var layer: Layer
    var dependencies: [Target.Dependency]
    /// The name of an executable product, or `nil` for a library.
    var executableProduct: String?
    var hasTests: Bool
    var testDependencies: [Target.Dependency]
    /// Files in the test folder that are not Swift sources (helper scripts).
    var testExclude: [String] = []
    /// Files in the module's folder that are not sources (helper scripts).
    var exclude: [String] = []
    /// Files in the module's folder bundled with it (`Bundle.module`).
    var resources: [Resource] = []
    /// For a system library: its pkg-config name and the Debian packages that provide it.
    var systemLibrary: (pkgConfig: String, apt: [String])? = nil

    /// A C library of the system, found with pkg-config, under `Modules/<Name>`.
    static func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Module {
        Module(
            name: name, layer: .core, dependencies: [], executableProduct: nil, hasTests: false,
            testDependencies: [], systemLibrary: (pkgConfig, apt))
    }

    /// A library in the core, domain or data layer.
    static func module(
        _ name: String, layer: Layer, dependencies: [Target.Dependency] = [],
        tests: Bool = true, testDependencies: [Target.Dependency] = [], testExclude: [String] = []
    ) -> Module {
        Module(
            name: name, layer: layer, dependencies: dependencies, executableProduct: nil,
            hasTests: tests, testDependencies: testDependencies, testExclude: testExclude)
    }

    /// A feature RIB, under `Modules/Features/`.
    static func feature(
        _ name: String, dependencies: [Target.Dependency] = [], testDependencies: [Target.Dependency] = []
    ) -> Module {
        Module(
            name: name, layer: .feature, dependencies: dependencies, executableProduct: nil,
            hasTests: true, testDependencies: testDependencies)
    }

    /// An app target under `Apps/`: a library, or an executable when `product` is given.
    static func app(
        _ name: String, product: String? = nil, dependencies: [Target.Dependency] = [],
        tests: Bool = true, testDependencies: [Target.Dependency] = [], testExclude: [String] = [],
        exclude: [String] = [], resources: [Resource] = []
    ) -> Module {
        Module(
            name: name, layer: .app, dependencies: dependencies, executableProduct: product,
            hasTests: tests, testDependencies: testDependencies, testExclude: testExclude, exclude: exclude,
            resources: resources)
    }

    /// A tool target under `Tools/`: a library, or an executable when `product` is given.
    static func tool(
        _ name: String, product: String? = nil, dependencies: [Target.Dependency] = [],
        tests: Bool = true, testDependencies: [Target.Dependency] = [], exclude: [String] = []
    ) -> Module {
        Module(
            name: name, layer: .tool, dependencies: dependencies, executableProduct: product,
            hasTests: tests, testDependencies: testDependencies, exclude: exclude)
    }

    var path: String {
        switch layer {
        case .core, .domain, .data: "Modules/\(name)"
        case .feature: "Modules/Features/\(name)"
        case .app: "Apps/\(name)"
        case .tool: "Tools/\(name)"
        }
    }

    var testTargetName: String { "\(name)Tests" }

    var targets: [Target] {
        if let systemLibrary {
            return [
                .systemLibrary(
                    name: name, path: path, pkgConfig: systemLibrary.pkgConfig,
                    providers: [.apt(systemLibrary.apt)])
            ]
        }
        var result: [Target] = []
        if executableProduct != nil {
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
                    dependencies: [.target(name: name)] + testDependencies,
                    path: "Tests/\(testTargetName)",
                    exclude: testExclude,
                    swiftSettings: swiftSettings))
        }
        return result
    }

    var product: Product? {
        if systemLibrary != nil { return nil }
        if let executableProduct {
            return .executable(name: executableProduct, targets: [name])
        }
        return .library(name: name, targets: [name])
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

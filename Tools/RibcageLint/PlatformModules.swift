/// The modules that platforms' SDKs provide, which a package imports without declaring.
///
/// This machine's own SDK is read from the toolchain (see ``Toolchain``); the SDKs of other
/// platforms cannot be, so they are listed here. The lists name the modules that portable
/// packages import behind `#if canImport(…)` or `#if os(…)`; an import of one of them is never
/// an undeclared dependency, whatever the platform.
package enum PlatformModules {
    /// Apple's SDKs (macOS, iOS, tvOS, watchOS, visionOS): the system frameworks and C modules.
    package static let apple: Set<String> = [
        "Accelerate", "Accessibility", "ActivityKit", "AppIntents", "AppKit", "AppleArchive",
        "ApplicationServices", "AppTrackingTransparency", "ARKit", "AudioToolbox",
        "AuthenticationServices", "AVFAudio", "AVFoundation", "AVKit", "BackgroundTasks", "Carbon",
        "CFNetwork", "Charts", "CloudKit", "Cocoa", "Combine", "CommonCrypto", "Compression",
        "Contacts", "CoreAudio", "CoreBluetooth", "CoreData", "CoreFoundation", "CoreGraphics",
        "CoreHaptics", "CoreImage", "CoreLocation", "CoreML", "CoreMedia", "CoreMotion", "CoreNFC",
        "CoreServices", "CoreSpotlight", "CoreTelephony", "CoreText", "CoreTransferable",
        "CoreVideo", "CoreWLAN", "CryptoKit", "Darwin", "DeveloperToolsSupport", "DeviceCheck",
        "DriverKit", "EventKit", "ExtensionFoundation", "FileProvider", "FoundationModels",
        "GameController", "GameKit", "GLKit", "HealthKit", "Hypervisor", "ImageIO", "Intents",
        "IOKit", "IOSurface", "LinkPresentation", "LocalAuthentication", "MachO", "MapKit",
        "MediaPlayer", "MessageUI", "Metal", "MetalKit", "MetalPerformanceShaders",
        "MultipeerConnectivity", "NaturalLanguage", "Network", "NetworkExtension", "ObjectiveC",
        "os", "OSLog", "PassKit", "PDFKit", "PencilKit", "Photos", "PhotosUI", "QuartzCore",
        "QuickLook", "RealityKit", "SafariServices", "SceneKit", "Security", "SecurityFoundation",
        "ServiceManagement", "Spatial", "Speech", "SpriteKit", "StoreKit", "SwiftData", "SwiftUI",
        "SwiftUICore", "Symbols", "System", "SystemConfiguration", "TipKit", "UIKit",
        "UniformTypeIdentifiers", "UserNotifications", "Virtualization", "Vision", "VisionKit",
        "WatchConnectivity", "WatchKit", "WebKit", "WidgetKit", "XPC", "libkern",
    ]

    /// Windows: the C runtime and the Windows SDK as Swift sees them.
    package static let windows: Set<String> = ["ucrt", "CRT", "WinSDK", "visualc", "vcruntime", "WinUI"]

    /// WebAssembly (WASI).
    package static let wasi: Set<String> = ["WASILibc", "wasi_pthread", "SwiftWASILibc"]

    /// Android (Bionic).
    package static let android: Set<String> = ["Android", "Bionic", "SwiftAndroid"]

    /// Linux with musl (the static Linux SDK) and the BSDs, which name their C library apart.
    package static let otherUnix: Set<String> = ["Musl", "SwiftMusl", "Glibc", "SwiftGlibc"]

    /// The modules every Linux toolchain has, for when the toolchain's own folders cannot be read.
    package static let linuxFallback: Set<String> = [
        "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization",
        "FoundationNetworking", "FoundationXML", "CoreFoundation", "Dispatch", "Glibc",
        "SwiftGlibc", "Synchronization", "Observation", "Distributed", "RegexBuilder",
        "_Concurrency", "_StringProcessing", "_Differentiation", "Testing", "XCTest", "Cxx",
        "CxxStdlib", "SwiftOnoneSupport",
    ]

    /// The API of SwiftPM plugins, which only plugin targets import.
    package static let pluginAPI: Set<String> = ["PackagePlugin"]

    /// Every SDK module of every platform but this machine's.
    package static let otherPlatforms: Set<String> = apple.union(windows).union(wasi).union(android)
        .union(otherUnix)
}

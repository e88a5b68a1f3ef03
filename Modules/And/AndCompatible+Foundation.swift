import Foundation

#if canImport(FoundationNetworking)
    // URLRequest lives here on Linux.
    import FoundationNetworking
#endif

// Foundation types that are commonly built up step by step. Formatters, `UserDefaults`,
// `URLSession` configuration objects and the rest of Foundation's classes arrive through
// `NSObject`; on Linux, Foundation's encoders are plain classes and need their own line.

extension NSObject: AndCompatible {}

extension JSONEncoder: AndCompatible {}
extension JSONDecoder: AndCompatible {}
extension PropertyListEncoder: AndCompatible {}
extension PropertyListDecoder: AndCompatible {}

extension URLRequest: AndCompatible {}
extension URLComponents: AndCompatible {}
extension URLQueryItem: AndCompatible {}
extension DateComponents: AndCompatible {}
extension Calendar: AndCompatible {}

extension Array: AndCompatible {}
extension Dictionary: AndCompatible {}
extension Set: AndCompatible {}

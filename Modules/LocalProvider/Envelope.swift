import Foundation

/// How a value is stored: wrapped with its schema version and expiry. The wrapper also lets a
/// top-level scalar (an `Int`, a `String`) be a property list, which plists cannot be alone.
struct Envelope<Value: Codable>: Codable {
    var version: Int
    /// Seconds since 1970, not a `Date`: XML property lists keep dates to the whole second only.
    var expiresAt: Double?
    /// For a ``JournaledStore``'s snapshot: the last journal entry it holds.
    var sequence: Int?
    var value: Value
}

/// Just the header of an envelope, to learn a stored value's version without decoding it.
private struct EnvelopeHeader: Decodable {
    var version: Int
    var expiresAt: Double?
    var sequence: Int?

    var expiryDate: Date? { expiresAt.map(Date.init(timeIntervalSince1970:)) }
}

/// The outcome of decoding a stored blob.
enum DecodedEntry<Value> {
    case value(Value, expiresAt: Date?, sequence: Int?)
    case expired
    /// The blob cannot be read as the key's value; the store sets it aside.
    case damaged(DamageReason)
}

/// Encodes and decodes envelopes as property lists.
struct EnvelopeCodec: Sendable {
    var format: PropertyListSerialization.PropertyListFormat

    func encode<Value>(_ value: Value, for key: StorageKey<Value>, expiresAt: Date?, sequence: Int? = nil)
        throws(StorageError) -> Data
    {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        do {
            return try encoder.encode(
                Envelope(
                    version: key.version, expiresAt: expiresAt?.timeIntervalSince1970, sequence: sequence,
                    value: value))
        } catch {
            throw .encodingFailed(key: key.name, underlying: error)
        }
    }

    /// Decodes `data` for `key`, migrating an older schema version when the key can.
    func decode<Value>(_ data: Data, for key: StorageKey<Value>, now: Date) -> DecodedEntry<Value> {
        let decoder = PropertyListDecoder()
        // Fast path, one decoding pass: the current version of the key's own type.
        if let envelope = try? decoder.decode(Envelope<Value>.self, from: data),
            envelope.version == key.version
        {
            let expiry = envelope.expiresAt.map(Date.init(timeIntervalSince1970:))
            if let expiry, expiry <= now { return .expired }
            return .value(envelope.value, expiresAt: expiry, sequence: envelope.sequence)
        }
        let header: EnvelopeHeader
        do {
            header = try decoder.decode(EnvelopeHeader.self, from: data)
        } catch {
            return .damaged(.unreadableBytes(underlying: error))
        }
        if let expiresAt = header.expiryDate, expiresAt <= now { return .expired }
        guard header.version != key.version else {
            // Same version, yet the fast path failed: the stored value is of another type.
            do {
                _ = try decoder.decode(Envelope<Value>.self, from: data)
                return .damaged(.wrongType(key: key.name, underlying: CocoaError(.propertyListReadCorrupt)))
            } catch {
                return .damaged(.wrongType(key: key.name, underlying: error))
            }
        }
        guard let migration = key.migration else {
            return .damaged(.unknownVersion(key: key.name, stored: header.version, expected: key.version))
        }
        do {
            let value = try migration(header.version, try Self.rawValue(of: data))
            return .value(value, expiresAt: header.expiryDate, sequence: header.sequence)
        } catch {
            return .damaged(.migrationFailed(key: key.name, from: header.version, underlying: error))
        }
    }

    /// The envelope's `value`, re-serialized on its own so a migration can decode its old type.
    private static func rawValue(of data: Data) throws -> Data {
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        guard let dictionary = plist as? [String: Any], let value = dictionary["value"] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        // Wrap a scalar so it is a valid top-level property list; migrations decode the same
        // shape they would have encoded: an envelope-less value, or `[value]` for a scalar.
        let container: Any = (value is [String: Any] || value is [Any]) ? value : [value]
        return try PropertyListSerialization.data(fromPropertyList: container, format: .binary, options: 0)
    }
}

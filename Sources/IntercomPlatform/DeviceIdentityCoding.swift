import Foundation

/// The on-disk JSON form of `DeviceIdentity`, and the classification of every way that file can be damaged.
enum DeviceIdentityCoding {
    /// Longest accepted id, in UTF-8 bytes; real ids are 36-character UUIDs or 10-character objectIds.
    static let maximumIDLength = 256

    /// Sorted keys and a trailing newline, so the file is stable and readable with `cat`.
    static func encode(_ identity: DeviceIdentity) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(identity)) + [UInt8(ascii: "\n")]
        } catch {
            // Four optional strings always encode; failure here is a programming error.
            preconditionFailure("DeviceIdentity failed to encode: \(error)")
        }
    }

    static func decode(_ bytes: [UInt8]) throws(StateRecovery.Reason) -> DeviceIdentity {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { throw .empty }
        let identity: DeviceIdentity
        do {
            identity = try JSONDecoder().decode(DeviceIdentity.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw classify(error)
        } catch {
            throw .malformedJSON(String(describing: error))
        }
        if let problem = problem(in: identity) { throw .invalidValue(problem) }
        return identity
    }

    static func problem(in identity: DeviceIdentity) -> String? {
        for (key, value) in [("installationID", identity.installationID), ("anonymousAuthID", identity.anonymousAuthID)] {
            if value.isEmpty { return "\(key) is empty" }
            if value.utf8.count > maximumIDLength { return "\(key) is longer than \(maximumIDLength) bytes" }
        }
        return nil
    }

    /// Separates "not JSON at all" (truncated, garbage, zero-filled after a power cut) from "JSON of the
    /// wrong shape" (missing keys, wrong types), because they point at different causes.
    static func classify(_ error: DecodingError) -> StateRecovery.Reason {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .malformedJSON(context.debugDescription)
        case .dataCorrupted(let context):
            return .wrongShape("bad value at \(keyPath(context.codingPath))")
        case .keyNotFound(let key, _):
            return .wrongShape("missing key \(key.stringValue)")
        case .typeMismatch(let type, let context):
            return .wrongShape("expected \(type) at \(keyPath(context.codingPath))")
        case .valueNotFound(let type, let context):
            return .wrongShape("null where \(type) is required at \(keyPath(context.codingPath))")
        @unknown default:
            return .malformedJSON(String(describing: error))
        }
    }

    static func keyPath(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "the top level" : path.map(\.stringValue).joined(separator: ".")
    }
}

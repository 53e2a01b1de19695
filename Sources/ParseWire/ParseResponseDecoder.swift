import Foundation

/// Turns one HTTP response (status + body) into a wire type or a `ParseWireError`.
/// A body carrying a numeric `code` is a Parse error whatever the status (a proxy or a buggy server may send
/// `{"code":209}` with 200), and so is any non-2xx status.
public struct ParseResponseDecoder: Sendable {
    /// parse-server accepts up to 20 MB uploads; a device never needs responses anywhere near that.
    public var maxBodyBytes: Int

    public init(maxBodyBytes: Int = 4 << 20) {
        self.maxBodyBytes = maxBodyBytes
    }

    public func decode<T: Decodable>(_ type: T.Type, status: Int, body: [UInt8]) throws(ParseWireError) -> T {
        guard body.count <= maxBodyBytes else { throw .tooLarge(bytes: body.count, limit: maxBodyBytes) }
        try JSONDepthGuard.check(body)
        if let error = Self.serverError(status: status, body: body) { throw .server(error) }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch {
            throw ParseWireError.from(error)
        }
    }

    /// The Parse error this response carries, if any.
    public static func serverError(status: Int, body: [UInt8]) -> ParseError? {
        if !(200..<300).contains(status) { return ParseError.decode(body: body, httpStatus: status) }
        struct CodeProbe: Decodable { var code: Int? }
        guard body.first(where: { !$0.isJSONWhitespace }) == UInt8(ascii: "{"),
              let probe = try? JSONDecoder().decode(CodeProbe.self, from: Data(body)), probe.code != nil
        else { return nil }
        return ParseError.decode(body: body, httpStatus: status)
    }
}

extension UInt8 {
    var isJSONWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}

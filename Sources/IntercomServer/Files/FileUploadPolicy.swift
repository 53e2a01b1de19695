import Foundation

/// What an upload to `POST /parse/files/<name>` must be, checked before anything touches the disk
/// (parse-server `FilesRouter.createHandler`): a valid name, a body within the size limit, and a JPEG —
/// the declared `Content-Type` and the bytes' own magic must agree, so a browser served the file later never
/// sniffs it as something else. Sans-IO: the endpoint gathers the facts, this decides.
struct FileUploadPolicy: Sendable {
    /// The one type this server stores: device snapshots (issue #19). Others answer 400/130.
    static let acceptedContentType = "image/jpeg"
    /// parse-server `Parse.Error.FILE_SAVE_ERROR`, its answer to a refused type or a public upload.
    static let fileSaveError = 130
    /// parse-server `Parse.Error.INVALID_FILE_NAME`.
    static let invalidFileName = 122

    let maxBytes: Int

    /// Throws the Parse error the client gets; returns the stored (unguessable) name otherwise.
    func admit(name: String, contentType: String?, bytes: some Collection<UInt8>, isAuthenticated: Bool,
               random: () -> String = { RandomText.hex(RandomText.bytes(16)) }) throws(ParseError) -> String {
        // parse-server's default `fileUpload.enableForPublic` is false; devices log in (anonymously at
        // least), so they pass.
        guard isAuthenticated else { throw ParseError(code: Self.fileSaveError, "File upload by public is disabled.") }
        guard Self.isValidName(name) else {
            throw ParseError(code: Self.invalidFileName, "Filename contains invalid characters.")
        }
        guard bytes.count <= maxBytes else { throw ParseError(plainStatus: 413, "request entity too large") }
        guard !bytes.isEmpty else { throw ParseError(code: Self.fileSaveError, "Invalid file upload.") }
        let declared = contentType?.split(separator: ";").first.map { String($0).trimmingSpaces.lowercased() }
        guard declared == Self.acceptedContentType, Self.looksLikeJPEG(bytes) else {
            throw ParseError(code: Self.fileSaveError, "File upload of this type is disabled (only image/jpeg).")
        }
        // The random prefix is what keeps a file private: 128 bits nobody can guess (parse-server's
        // `<32 hex>_<name>` too). It is learnt only from the row that points at the file.
        return random() + "_" + name
    }

    /// parse-server `FilesController.validateFilename`: 1…128 characters of `[_a-zA-Z0-9][a-zA-Z0-9@. ~_-]*`.
    static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...128).contains(bytes.count), let first = bytes.first, isAlphanumeric(first) || first == UInt8(ascii: "_")
        else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || "@. ~_-".utf8.contains($0) }
    }

    /// A valid name as a URL path segment: of its characters only space and `@` need escaping.
    static func urlSegment(_ name: String) -> String {
        name.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: "@", with: "%40")
    }

    /// SOI followed by the start of a marker (`FF D8 FF`): every JFIF/Exif/raw JPEG begins so.
    static func looksLikeJPEG(_ bytes: some Collection<UInt8>) -> Bool {
        Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF]
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

/// Parse Files (parse-server `FilesRouter`), for the snapshots of the visitor log (issue #19).
///
/// Access: by unguessable name, as parse-server does. An upload gets a stored name with 128 random bits;
/// `GET /parse/files/<appId>/<name>` serves it to anyone who has the name, and the name is only in the
/// `CallLog` row that points at it, which only the device's owners can read. (Checking the row on every
/// `GET` would make `<img src>` in the web caller impossible without a token in the URL.)
extension ParseService {
    /// `POST /parse/files/<name>` with the raw bytes: 201 `{"url","name"}` and `Location: <url>`.
    func uploadFile(_ request: ParseRequest, name: String, contentType: String?, bytes: [UInt8]) async -> ParseResponse {
        do {
            let auth = try await authenticate(request)
            let policy = FileUploadPolicy(maxBytes: configuration.maxFileBytes)
            let stored = try policy.admit(name: name, contentType: contentType, bytes: bytes,
                                          isAuthenticated: auth.isMaster || auth.userId != nil)
            try await files.write(stored, bytes)
            let record = FileRecordStore.Record(name: stored, ownerId: auth.userId, size: bytes.count,
                                                contentType: FileUploadPolicy.acceptedContentType,
                                                createdAt: clock.milliseconds)
            do {
                try await database.write { db in try FileRecordStore.insert(db, record) }
            } catch {
                // A file without its record could be neither referenced nor deleted by its uploader.
                await files.delete(stored)
                throw error
            }
            let url = fileURL(request, stored)
            return ParseResponse(status: 201, body: ["url": .string(url), "name": .string(stored)], location: url)
        } catch {
            return .failure(parseError(error))
        }
    }

    /// `DELETE /parse/files/<name>`: parse-server allows it with the master key only (else 403
    /// `unauthorized: master key is required`); here the uploader may too, and gets 200 `{}`. For anyone
    /// else a file that does not exist and someone else's file get the same 403, so the answer tells nothing.
    func deleteFile(_ request: ParseRequest, name: String) async -> ParseResponse {
        do {
            let auth = try await authenticate(request)
            let userId = auth.userId
            let allowed = try await database.write { db -> Bool in
                guard FileUploadPolicy.isValidName(name) else { return false }
                if !auth.isMaster {
                    guard try FileRecordStore.notOwned(db, names: [name], by: userId).isEmpty else { return false }
                }
                try FileRecordStore.delete(db, name: name)
                return true
            }
            guard allowed else { throw ParseError.masterKeyRequired }
            await files.delete(name)
            return .ok([:])
        } catch {
            return .failure(parseError(error))
        }
    }

    /// `GET /parse/files/<appId>/<name>`: the bytes, or nil for an unknown app id or file (404 either way,
    /// so the answer says nothing about which); throws (500) when the store cannot be read.
    func downloadFile(applicationId: String, name: String) async throws(FileStoreError) -> [UInt8]? {
        guard applicationId == configuration.applicationId, FileUploadPolicy.isValidName(name) else { return nil }
        return try await files.read(name)
    }

    /// The file's public URL: under `publicURL` when configured (behind a proxy), else as `Location`s are.
    func fileURL(_ request: ParseRequest, _ name: String) -> String {
        let escaped = FileUploadPolicy.urlSegment(name)
        if var base = configuration.publicURL {
            while base.hasSuffix("/") { base.removeLast() }
            return base + "/parse/files/" + configuration.applicationId + "/" + escaped
        }
        return location(request, "files", configuration.applicationId, escaped)
    }
}

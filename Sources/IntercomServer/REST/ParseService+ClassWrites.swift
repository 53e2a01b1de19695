
/// Create, update and delete on `/classes/<name>` (parse-wire.md §4), with the access rules of
/// `AccessPolicy` and the `ActiveSessions` beforeSave of `CallSessionMinter`.
extension ParseService {
    func create(className: String, _ request: ParseRequest, auth: RequestAuth) async throws -> ParseResponse {
        let descriptor = try writableClass(className)
        var body = try bodyObject(request)
        guard body["objectId"] == nil, body["id"] == nil else {
            throw ParseError.invalidKeyName("objectId is an invalid field name.")
        }
        for field in descriptor.serverOwnedFields { body.removeValue(forKey: field) }
        let policy = accessPolicy(descriptor)
        var outcome = try FieldOperations.apply(body, to: [:])
        if descriptor.name == ClassDescriptor.activeUsers.name, !auth.isMaster, outcome.fields["userID"] == nil,
           let userId = auth.userId {
            outcome.fields["userID"] = .string(userId)
        }
        try policy.authorizeCreate(auth, fields: outcome.fields)

        let now = clock.milliseconds
        var serverFields: [String: JSONValue] = [:]
        var callSession: CallSessionRecord?
        if descriptor.name == ClassDescriptor.activeSessions.name {
            for field in ["callerID", "receiverID"] {
                guard let value = outcome.fields[field]?.stringValue, !value.isEmpty else {
                    throw ParseError.validation("\(field) is required")
                }
            }
            let minted = try await minter.mint(
                callerID: outcome.fields["callerID"]?.stringValue ?? "",
                receiverID: outcome.fields["receiverID"]?.stringValue ?? "",
                signalURL: signalURL(for: request), now: now)
            serverFields = minted.fields
            callSession = minted.record
            outcome.fields.merge(minted.fields) { _, server in server }
        }

        let object = StoredObject(objectId: RandomText.objectId(), createdAt: now, updatedAt: now, fields: outcome.fields)
        try await database.write { [callSession, auth] db in
            try FileOwnership.authorize(db, object.fields, auth: auth)
            try SchemaStore.validateAndRecord(db, descriptor, fields: object.fields)
            try ObjectStore.insert(db, descriptor, object)
            if let callSession { try CallSessionStore.insert(db, callSession) }
        }
        await changes.publish(.created(descriptor.name, object))
        var response = serverFields.merging(outcome.operationResults) { server, _ in server }
        response["objectId"] = .string(object.objectId)
        response["createdAt"] = .string(ParseTimestamp.format(milliseconds: now))
        return ParseResponse(status: 201, body: .object(response),
                             location: location(request, "classes", descriptor.name, object.objectId))
    }

    func update(className: String, objectId: String, _ request: ParseRequest, auth: RequestAuth) async throws
        -> ParseResponse
    {
        let descriptor = try writableClass(className)
        var body = try bodyObject(request)
        if let sent = body.removeValue(forKey: "objectId"), sent != .string(objectId) {
            throw ParseError.invalidKeyName("objectId is an invalid field name.")
        }
        for field in descriptor.serverOwnedFields { body.removeValue(forKey: field) }
        let policy = accessPolicy(descriptor)
        let now = clock.milliseconds
        let (original, updated, operationResults) = try await database.write { [body] db in
            guard let old = try ObjectStore.fetch(db, descriptor, objectId: objectId,
                                                  extra: policy.visibleRows(for: auth, now: now)),
                  policy.mayWrite(auth, old)
            else { throw ParseError.objectNotFound }
            let outcome = try FieldOperations.apply(body, to: old.fields)
            try policy.authorizeUpdate(auth, old: old, new: outcome.fields)
            try FileOwnership.authorize(db, outcome.fields.filter { outcome.touched.contains($0.key) },
                                        previous: old.fields, auth: auth)
            try SchemaStore.validateAndRecord(db, descriptor, fields: outcome.fields.filter { outcome.touched.contains($0.key) })
            var new = old
            new.fields = outcome.fields
            new.updatedAt = max(now, old.updatedAt)
            try ObjectStore.update(db, descriptor, new)
            return (old, new, outcome.operationResults)
        }
        await changes.publish(.updated(descriptor.name, from: original, to: updated))
        var response = operationResults
        response["updatedAt"] = .string(ParseTimestamp.format(milliseconds: updated.updatedAt))
        return .ok(.object(response))
    }

    func delete(className: String, objectId: String, auth: RequestAuth) async throws -> ParseResponse {
        guard let descriptor = ClassDescriptor.named(className) else { throw ParseError.objectNotFound }
        let policy = accessPolicy(descriptor)
        let now = clock.milliseconds
        let (deleted, released) = try await database.write { db in
            guard let old = try ObjectStore.fetch(db, descriptor, objectId: objectId,
                                                  extra: policy.visibleRows(for: auth, now: now)),
                  policy.mayWrite(auth, old)
            else { throw ParseError.objectNotFound }
            try ObjectStore.delete(db, descriptor, objectId: old.objectId)
            return (old, try FileOwnership.releaseWithRow(db, old.fields, ownerField: descriptor.creatorField))
        }
        await changes.publish(.deleted(descriptor.name, deleted))
        // A row's files go with it (issue #19: a deleted visit leaves no picture behind), but only those
        // its creator uploaded: a row naming another user's file must not delete it.
        for name in released { await files.delete(name) }
        return .ok([:])
    }

    func accessPolicy(_ descriptor: ClassDescriptor) -> AccessPolicy {
        AccessPolicy(descriptor: descriptor, heartbeatMilliseconds: configuration.heartbeatSeconds * 1000)
    }

    /// The descriptor of a class clients may write; other names answer 103 (malformed) or 119 (parse-server
    /// ≥7 `allowClientClassCreation:false`; this server never creates classes, even for the master key).
    private func writableClass(_ className: String) throws(ParseError) -> ClassDescriptor {
        if let descriptor = ClassDescriptor.named(className) { return descriptor }
        guard FieldName.isValid(className) || (className.hasPrefix("_") && FieldName.isValid(String(className.dropFirst())))
        else {
            throw ParseError(code: ParseErrorCode.invalidClassName,
                             "Invalid class name: \(className), classnames can only have alphanumeric characters and _, and must start with an alpha character ")
        }
        throw ParseError.forbidden("This user is not allowed to access non-existent class: \(className)")
    }

    /// The configured or listen-derived `signalURL` (issue #14, 3: never the request's Host header).
    func signalURL(for request: ParseRequest) -> String {
        configuration.advertisedSignalURL(boundPort: boundPort.port)
    }
}

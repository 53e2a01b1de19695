import Foundation

/// An `ObjectChange` as it crosses between instances (parse-server's `afterSave`/`afterDelete` bus
/// messages carry `currentParseObject` and `originalParseObject` the same way).
struct ChangeMessage: Codable, Equatable {
    struct Object: Codable, Equatable {
        var objectId: String
        var createdAt: Int64
        var updatedAt: Int64
        var fields: [String: JSONValue]
    }

    var className: String
    var original: Object?
    var current: Object?

    init(_ change: ObjectChange) {
        className = change.className
        original = change.original.map(Object.init)
        current = change.current.map(Object.init)
    }

    var change: ObjectChange {
        ObjectChange(className: className, original: original.map(\.stored), current: current.map(\.stored))
    }

    /// Decodes a bus payload; nil (and the message ignored) for anything that is not one.
    init?(payload: String) {
        guard let message = try? JSONDecoder().decode(ChangeMessage.self, from: Data(payload.utf8)),
              message.original != nil || message.current != nil else { return nil }
        self = message
    }

    var payload: String {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

extension ChangeMessage.Object {
    init(_ object: StoredObject) {
        self.init(objectId: object.objectId, createdAt: object.createdAt, updatedAt: object.updatedAt,
                  fields: object.fields)
    }

    var stored: StoredObject {
        StoredObject(objectId: objectId, createdAt: createdAt, updatedAt: updatedAt, fields: fields)
    }
}

/// One committed write to a class, as LiveQuery sees it (parse-server `_onAfterSave` / `_onAfterDelete`):
/// the row before (nil on create) and after (nil on delete).
struct ObjectChange: Sendable {
    let className: String
    let original: StoredObject?
    let current: StoredObject?

    static func created(_ className: String, _ object: StoredObject) -> ObjectChange {
        ObjectChange(className: className, original: nil, current: object)
    }

    static func updated(_ className: String, from old: StoredObject, to new: StoredObject) -> ObjectChange {
        ObjectChange(className: className, original: old, current: new)
    }

    static func deleted(_ className: String, _ object: StoredObject) -> ObjectChange {
        ObjectChange(className: className, original: object, current: nil)
    }
}

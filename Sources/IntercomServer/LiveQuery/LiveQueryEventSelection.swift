import ParseWire

/// Which event a subscription gets for a change (parse-wire.md §8, parse-server `_onAfterSave`):
/// matched before and matches now → `update`; before only → `leave`; now only → `enter` when there was an
/// original, else `create`; a delete that matches → `delete`. `watch` suppresses create and update unless
/// a watched field changed.
enum LiveQueryEventSelection {
    static func event(for change: ObjectChange, matches: ([String: JSONValue]) -> Bool, watch: [String]?)
        -> (LiveQueryEventKind, StoredObject)?
    {
        guard let current = change.current else {
            guard let original = change.original, matches(original.restJSON) else { return nil }
            return (.delete, original)
        }
        let matchedBefore = change.original.map { matches($0.restJSON) } ?? false
        let matchesNow = matches(current.restJSON)
        switch (matchedBefore, matchesNow) {
        case (true, true):
            guard watchedFieldChanged(change, watch) else { return nil }
            return (.update, current)
        case (true, false):
            return (.leave, current)
        case (false, true):
            if change.original != nil { return (.enter, current) }
            guard watchedFieldChanged(change, watch) else { return nil }
            return (.create, current)
        case (false, false):
            return nil
        }
    }

    private static func watchedFieldChanged(_ change: ObjectChange, _ watch: [String]?) -> Bool {
        guard let watch, !watch.isEmpty else { return true }
        let before = change.original?.fields ?? [:]
        let after = change.current?.fields ?? [:]
        return watch.contains { before[$0] != after[$0] }
    }
}

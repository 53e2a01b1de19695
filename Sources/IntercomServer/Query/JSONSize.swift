/// Whether a JSON value's text would fit in a byte budget, walked without encoding it and abandoned as
/// soon as the budget is spent (a hostile `where` can be most of a 1 MB body).
enum JSONSize {
    static func fits(_ value: JSONValue, within budget: Int) -> Bool {
        var remaining = budget
        return consume(value, &remaining)
    }

    private static func consume(_ value: JSONValue, _ remaining: inout Int) -> Bool {
        switch value {
        case .string(let text): remaining -= text.utf8.count + 2
        case .number: remaining -= 8
        case .bool, .null: remaining -= 4
        case .array(let items):
            remaining -= 2
            for item in items {
                remaining -= 1
                guard remaining >= 0, consume(item, &remaining) else { return false }
            }
        case .object(let members):
            remaining -= 2
            for (key, item) in members {
                remaining -= key.utf8.count + 4
                guard remaining >= 0, consume(item, &remaining) else { return false }
            }
        }
        return remaining >= 0
    }
}

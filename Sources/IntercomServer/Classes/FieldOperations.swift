/// Applies a create/update body to an object's fields: plain values replace, `{"__op":…}` operations
/// (`Delete`, `Increment`, `Add`, `AddUnique`, `Remove`; parse-wire.md §4) modify. Also enforces field
/// names (105) and well-formed typed values (111 for a GeoPoint out of range or a bad Date).
enum FieldOperations {
    struct Outcome: Sendable {
        var fields: [String: JSONValue]
        /// Results of operations, echoed in the response as parse-server does.
        var operationResults: [String: JSONValue]
        /// Every field the body touched.
        var touched: Set<String>
    }

    static func apply(_ body: [String: JSONValue], to base: [String: JSONValue]) throws(ParseError) -> Outcome {
        var outcome = Outcome(fields: base, operationResults: [:], touched: [])
        for (name, value) in body.sorted(by: { $0.key < $1.key }) {
            if name == "createdAt" || name == "updatedAt" { continue }
            guard name == "ACL" || FieldName.isValid(name) else { throw .invalidKeyName("Invalid field name: \(name).") }
            outcome.touched.insert(name)
            guard let op = value["__op"]?.stringValue else {
                try validate(value, field: name)
                outcome.fields[name] = value
                continue
            }
            let result = try operate(op, value, current: base[name], field: name)
            outcome.fields[name] = result
            if op != "Delete", let result { outcome.operationResults[name] = result }
        }
        return outcome
    }

    private static func operate(_ op: String, _ value: JSONValue, current: JSONValue?, field: String)
        throws(ParseError) -> JSONValue?
    {
        switch op {
        case "Delete":
            return nil
        case "Increment":
            guard let amount = value["amount"]?.numberValue else { throw .invalidJSON("Increment requires a number amount") }
            switch current {
            case nil, .null?: return .number(amount)
            case .number(let number)?: return .number(number + amount)
            default: throw .incorrectType("Cannot increment a non-number field: \(field)")
            }
        case "Add", "AddUnique", "Remove":
            guard let objects = value["objects"]?.arrayValue else { throw .invalidJSON("\(op) requires an objects array") }
            for object in objects { try validate(object, field: field) }
            var items: [JSONValue]
            switch current {
            case nil, .null?: items = []
            case .array(let existing)?: items = existing
            default: throw .incorrectType("Cannot apply \(op) to a non-array field: \(field)")
            }
            switch op {
            case "Add": items += objects
            case "AddUnique": for object in objects where !items.contains(object) { items.append(object) }
            default: items.removeAll { objects.contains($0) }
            }
            return .array(items)
        default:
            throw .invalidJSON("The operation \(op) is not supported")
        }
    }

    /// Typed values must be well formed: Parse's SDKs range-check GeoPoints; this server also refuses them
    /// on write (a documented divergence from parse-server, which stores anything).
    static func validate(_ value: JSONValue, field: String) throws(ParseError) {
        switch value.parseType {
        case "GeoPoint":
            guard GeoPoint(json: value) != nil else {
                throw .incorrectType(
                    "invalid GeoPoint for \(field): latitude must be in [-90, 90] and longitude in [-180, 180]")
            }
        case "Date":
            guard let iso = value["iso"]?.stringValue, ParseTimestamp.parse(iso) != nil else {
                throw .incorrectType("invalid Date for \(field): expected {\"__type\":\"Date\",\"iso\":\"YYYY-MM-DDTHH:MM:SS.MMMZ\"}")
            }
        default:
            break
        }
    }
}

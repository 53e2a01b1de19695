/// Parse field-name rules (`SchemaController.fieldNameIsValid`): `^[A-Za-z][A-Za-z0-9_]*$`, not
/// `className` or `length`.
enum FieldName {
    static let builtIn: Set<String> = ["objectId", "createdAt", "updatedAt", "ACL"]

    static func isValid(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLetter(first), name != "className", name != "length" else { return false }
        return name.utf8.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}

/// The stored names of the Parse Files a row points at (`{"__type":"File","name":…}` fields), for
/// deleting them with the row. Names that could not have been stored (`FileUploadPolicy.isValidName`)
/// are ignored, so a crafted row cannot delete outside the files directory.
enum FileReferences {
    static func names(in fields: [String: JSONValue]) -> [String] {
        fields.values.compactMap { value in
            guard value.parseType == "File", let name = value["name"]?.stringValue,
                  FileUploadPolicy.isValidName(name) else { return nil }
            return name
        }
    }
}

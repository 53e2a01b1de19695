/// The tables of one `[[name]]` array under construction.
final class TOMLArrayOfTablesBuilder {
    /// Never empty: created with its first element.
    private(set) var elements: [TOMLTableBuilder]
    /// The first `[[name]]` header.
    let location: SourceLocation
    /// The last key part of the first header.
    let keyLocation: SourceLocation

    init(first: TOMLTableBuilder, location: SourceLocation, keyLocation: SourceLocation) {
        elements = [first]
        self.location = location
        self.keyLocation = keyLocation
    }

    var last: TOMLTableBuilder { elements[elements.count - 1] }

    func append(_ element: TOMLTableBuilder) {
        elements.append(element)
    }
}

/// Overlays (`conf.d/*.toml`) replace single keys of what came before; tables merge key by key; arrays and
/// every other value are replaced whole. Each value keeps the location of the file that set it last.
enum TOMLMerge {
    static func merge(_ base: TOMLTable, with overlay: TOMLTable) -> TOMLTable {
        var merged = base
        for key in overlay.keys {
            guard let overlayNode = overlay[key] else { continue }
            if let baseNode = base[key], case .table(let baseTable) = baseNode.value,
               case .table(let overlayTable) = overlayNode.value {
                var node = baseNode
                node.value = .table(merge(baseTable, with: overlayTable))
                merged.set(key, node)
            } else {
                merged.set(key, overlayNode)
            }
        }
        return merged
    }
}

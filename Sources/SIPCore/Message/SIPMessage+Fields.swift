/// Typed views of the headers every transaction and dialog reads (RFC 3261 §8.1.1).
extension SIPMessage {
    public func callID() throws(SIPError) -> String {
        let value = try requiredValue(SIPHeaderName.callID)
        guard !value.isEmpty, !value.utf8.contains(where: SIPGrammar.isWhitespace) else {
            throw .malformedHeader(name: SIPHeaderName.callID)
        }
        return value
    }

    public func cseq() throws(SIPError) -> CSeq {
        try CSeq(parsing: requiredValue(SIPHeaderName.cseq))
    }

    public func from() throws(SIPError) -> NameAddress {
        try NameAddress(parsing: requiredValue(SIPHeaderName.from), header: SIPHeaderName.from)
    }

    public func to() throws(SIPError) -> NameAddress {
        try NameAddress(parsing: requiredValue(SIPHeaderName.to), header: SIPHeaderName.to)
    }

    /// Every Via, top first, whether comma-separated on one line or on repeated lines (§7.3.1).
    public func vias() throws(SIPError) -> [Via] {
        var parsed: [Via] = []
        for value in listValues(SIPHeaderName.via) { parsed.append(try Via(parsing: value)) }
        return parsed
    }

    public func topVia() throws(SIPError) -> Via {
        guard let top = try vias().first else { throw .missingHeader(SIPHeaderName.via) }
        return top
    }

    /// Contact values (name-addr or addr-spec); `*` of a de-registration is not a NameAddress and is skipped.
    public func contacts() throws(SIPError) -> [NameAddress] {
        var parsed: [NameAddress] = []
        for value in listValues(SIPHeaderName.contact) where value != "*" {
            parsed.append(try NameAddress(parsing: value, header: SIPHeaderName.contact))
        }
        return parsed
    }

    /// Route or Record-Route entries, top first.
    public func routeSet(_ name: String) throws(SIPError) -> [NameAddress] {
        var parsed: [NameAddress] = []
        for value in listValues(name) { parsed.append(try NameAddress(parsing: value, header: name)) }
        return parsed
    }

    public func maxForwards() throws(SIPError) -> Int? {
        guard let value = try singleValue(SIPHeaderName.maxForwards) else { return nil }
        guard let hops: Int = parseDecimal(Substring(value)), hops <= 255 else {
            throw .malformedHeader(name: SIPHeaderName.maxForwards)
        }
        return hops
    }

    /// `Expires` in seconds (§20.19: delta-seconds, at most 2^32-1).
    public func expires() throws(SIPError) -> UInt32? {
        guard let value = try singleValue(SIPHeaderName.expires) else { return nil }
        guard let seconds: UInt32 = parseDecimal(Substring(value)) else {
            throw .malformedHeader(name: SIPHeaderName.expires)
        }
        return seconds
    }
}

/// The checks a UA makes before handing a parsed message to a transaction (RFC 3261 §8.1.3.3, §8.2, §16.3).
/// A thrown request error is answered with `responseStatus`/`reasonPhrase`; a response that fails is discarded.
extension SIPMessage {
    /// To, From, Call-ID, CSeq and Via must be present once and parse (§8.1.1); the CSeq method must match the
    /// Request-Line (§8.1.1.5); Contact, Max-Forwards and Date must parse when present.
    public func validateRequest() throws(SIPError) {
        guard let method else { throw .notARequest }
        try validateCommonHeaders()
        guard try cseq().method == method else { throw .methodMismatch }
        // A branch that is only the magic cookie carries no transaction id (RFC 4475 §3.1.2.19, badbranch).
        guard try topVia().branch != Via.magicCookie else { throw .missingBranch }
        _ = try contacts()
        _ = try maxForwards()
        try validateDate()
    }

    /// A response with more than one Via was not meant for this UA (§8.1.3.3).
    public func validateResponse() throws(SIPError) {
        guard statusCode != nil else { throw .notAResponse }
        try validateCommonHeaders()
        guard try vias().count == 1 else { throw .multipleViasInResponse }
    }

    private func validateCommonHeaders() throws(SIPError) {
        _ = try to()
        _ = try from()
        _ = try callID()
        _ = try cseq()
        _ = try topVia()
    }

    /// rfc1123-date with "GMT" as the only zone (§20.17); RFC 4475's baddate uses "EST".
    private func validateDate() throws(SIPError) {
        guard let date = try singleValue(SIPHeaderName.date) else { return }
        guard date.hasSuffix(" GMT") else { throw .malformedDate }
    }
}

/// The answer to a request that parsed but failed `validateRequest()` (RFC 3261 §8.2, §21.4.1): the error's
/// status with a reason phrase that says what was wrong. Headers that are missing or malformed are copied as
/// they are, which is the best a UAS can do (§8.2.6.2).
extension ResponseBuilder {
    public static func refusal(of request: SIPMessage, for error: SIPError, toTag: String) -> SIPMessage {
        response(to: request, status: error.responseStatus, reason: error.reasonPhrase, toTag: toTag)
    }
}

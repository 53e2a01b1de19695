/// Why a token is not a valid scalar; the scanner turns it into a `TOMLParseError` at the token start.
struct TOMLSyntaxProblem: Error {
    var message: String
}

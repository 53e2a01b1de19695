/// `CSeq: <number> <method>` (RFC 3261 §8.1.1.5, §20.16): the number below 2^31.
public struct CSeq: Hashable, Sendable {
    public var number: UInt32
    public var method: SIPMethod

    public static let maxNumber: UInt32 = (1 << 31) - 1

    public init(_ number: UInt32, _ method: SIPMethod) {
        self.number = number
        self.method = method
    }

    public var serialized: String { "\(number) \(method.rawValue)" }

    public init(parsing value: String) throws(SIPError) {
        let fields = value.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count == 2, let number: UInt32 = parseDecimal(fields[0]), number <= Self.maxNumber,
            SIPGrammar.isToken(fields[1])
        else { throw .malformedHeader(name: SIPHeaderName.cseq) }
        self.init(number, SIPMethod(String(fields[1])))
    }
}

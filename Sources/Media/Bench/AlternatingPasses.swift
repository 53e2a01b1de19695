/// The pass order both comparisons use: raw first on even passes, ours first on odd ones, so neither side
/// always runs on a freshly warmed cache.
enum AlternatingPasses {
    static func run(
        repeats: Int, raw: (_ pass: Int) throws(BenchError) -> Void, ours: (_ pass: Int) throws(BenchError) -> Void
    ) throws(BenchError) {
        for pass in 0..<repeats {
            if pass % 2 == 0 {
                try raw(pass)
                try ours(pass)
            } else {
                try ours(pass)
                try raw(pass)
            }
        }
    }
}

extension BaselineProcess {
    /// Runs a raw baseline and parses its figures; output that does not parse is an error naming the command.
    static func runParsed<Figures>(
        _ path: String, _ arguments: [String], parse: (String) -> Figures?
    ) throws(BenchError) -> (figures: Figures, output: String) {
        let output = try run(path, arguments)
        guard let figures = parse(output) else {
            throw .unparsableBaselineOutput(command: commandLine(path, arguments), output: output)
        }
        return (figures, output)
    }
}

import Testing
@testable import Media

@Suite("G.711 μ-law and A-law")
struct G711Tests {
    @Test func knownVectors() {
        #expect(G711.muLaw(encoding: 0) == 0xFF)
        #expect(G711.aLaw(encoding: 0) == 0xD5)
        #expect(G711.muLaw(encoding: Int16.max) == 0x80)
        #expect(G711.muLaw(encoding: Int16.min) == 0x00)
        #expect(G711.aLaw(encoding: Int16.max) == 0xAA)
        #expect(G711.aLaw(encoding: Int16.min) == 0x2A)
        // Full-scale codes decode to the G.711 extremes.
        #expect(G711.muLaw(decoding: 0x80) == 32124)
        #expect(G711.muLaw(decoding: 0x00) == -32124)
        #expect(G711.aLaw(decoding: 0xAA) == 32256)
        #expect(G711.aLaw(decoding: 0x2A) == -32256)
        #expect(G711.muLaw(decoding: 0xFF) == 0)
        #expect(G711.aLaw(decoding: 0xD5) == 8)
        #expect(G711.aLaw(decoding: 0x55) == -8)
        // ITU-T G.711 Table 2a/1a, the first step above zero.
        #expect(G711.muLaw(encoding: 8) == 0xFE)
        #expect(G711.muLaw(encoding: -8) == 0x7E)
    }

    @Test func everyAlawCodeDecodesAndEncodesToItself() {
        for code in UInt8.min...UInt8.max {
            #expect(G711.aLaw(encoding: G711.aLaw(decoding: code)) == code, "A-law \(code)")
        }
    }

    @Test func everyMuLawCodeExceptNegativeZeroDecodesAndEncodesToItself() {
        for code in UInt8.min...UInt8.max where code != 0x7F {
            #expect(G711.muLaw(encoding: G711.muLaw(decoding: code)) == code, "μ-law \(code)")
        }
        // 0x7F is μ-law's "negative zero": it decodes to 0, which encodes as 0xFF.
        #expect(G711.muLaw(decoding: 0x7F) == 0)
        #expect(G711.muLaw(encoding: G711.muLaw(decoding: 0x7F)) == 0xFF)
    }

    /// Logarithmic quantisation: the error grows with the magnitude but stays within half a step, about
    /// 1/32 of the value (plus the finest step near zero, and the clipping of the top μ-law values).
    @Test func roundTripErrorIsBoundedForEverySample() {
        var worstMu = 0
        var worstA = 0
        for value in Int16.min...Int16.max {
            let magnitude = abs(Int(value))
            let muError = abs(Int(G711.muLaw(decoding: G711.muLaw(encoding: value))) - Int(value))
            let aError = abs(Int(G711.aLaw(decoding: G711.aLaw(encoding: value))) - Int(value))
            if magnitude <= 32124 { #expect(muError <= magnitude / 32 + 8 || muError <= magnitude / 16, "μ \(value)") }
            if magnitude <= 32256 { #expect(aError <= magnitude / 32 + 16, "A \(value)") }
            worstMu = max(worstMu, muError)
            worstA = max(worstA, aError)
        }
        #expect(worstMu <= 1024)
        #expect(worstA <= 1024)
    }

    @Test func toneSurvivesBothLaws() {
        var tone = ToneGenerator(frequency: 1000, amplitude: 0.5, sampleRate: 8000)
        let samples = tone.next(frames: 1600)
        for decoded in [G711.muLaw(decoding: G711.muLaw(encoding: samples)), G711.aLaw(decoding: G711.aLaw(encoding: samples))] {
            #expect(abs(PCMAnalysis.rmsDecibels(decoded) - PCMAnalysis.rmsDecibels(samples)) < 0.2)
            #expect(PCMAnalysis.dominantFrequency(decoded, sampleRate: 8000, range: 500...3500) == 1000)
        }
    }
}

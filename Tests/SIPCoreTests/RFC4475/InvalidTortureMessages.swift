import Testing

/// RFC 4475 §3.1.2 (invalid syntax), §3.2 and §3.3 (semantics): messages a UA must refuse, each with the
/// response status it answers with. Written out from the RFC's text, not byte-compared with it.
enum InvalidTortureMessages {
    struct Case: Sendable, CustomTestStringConvertible {
        let message: TortureMessage
        /// 400 unless the RFC's text calls for another code (505 badvers, 416 unknown schemes).
        let status: Int
        var testDescription: String { message.name }
    }

    static let badinv01 = TortureMessage("badinv01", """
        INVITE sip:user@example.com SIP/2.0
        To: sip:j.user@example.com
        From: sip:caller@example.net;tag=134161461246
        Max-Forwards: 7
        Call-ID: badinv01.0ha0isndaksdjasdf3234nas
        CSeq: 8 INVITE
        Via: SIP/2.0/UDP 192.0.2.15;;,;,,
        Contact: "Joe" <sip:joe@example.org>;;;;
        Content-Length: 152
        Content-Type: application/sdp


        """ + tortureSDP + "\n")

    static let clerr = TortureMessage("clerr", """
        INVITE sip:user@example.com SIP/2.0
        Max-Forwards: 80
        To: sip:j.user@example.com
        From: sip:caller@example.net;tag=93942939o2
        Contact: <sip:caller@hungry.example.net>
        Call-ID: clerr.0ha0isndaksdjweiafasdk3
        CSeq: 8 INVITE
        Via: SIP/2.0/UDP host5.example.com;branch=z9hG4bK-39234-23523
        Content-Type: application/sdp
        Content-Length: 9999


        """ + tortureSDP)

    static let ncl = TortureMessage("ncl", """
        INVITE sip:user@example.com SIP/2.0
        Max-Forwards: 254
        To: sip:j.user@example.com
        From: sip:caller@example.net;tag=32394234
        Call-ID: ncl.0ha0isndaksdj2193423r542w35
        CSeq: 0 INVITE
        Via: SIP/2.0/UDP 192.0.2.53;branch=z9hG4bKkdjuw
        Contact: <sip:caller@example53.example.net>
        Content-Type: application/sdp
        Content-Length: -999


        """ + tortureSDP)

    static let scalar02 = TortureMessage("scalar02", """
        REGISTER sip:example.com SIP/2.0
        Via: SIP/2.0/TCP host129.example.com;branch=z9hG4bK342sdfoi3
        To: <sip:user@example.com>
        From: <sip:user@example.com>;tag=239232jh3
        CSeq: 36893488147419103232 REGISTER
        Call-ID: scalar02.23o0pd9vanlq3wnrlnewofjas9ui32
        Max-Forwards: 300
        Expires: 1\(String(repeating: "0", count: 29))
        Contact: <sip:user@host129.example.com>;expires=280297596632815
        Content-Length: 0


        """)

    static let scalarlg = TortureMessage("scalarlg", """
        SIP/2.0 503 Service Unavailable
        Via: SIP/2.0/TCP host129.example.com;branch=z9hG4bKzzxdiwo34sw;received=192.0.2.129
        To: <sip:user@example.com>
        From: <sip:other@example.net>;tag=2easdjfejw
        CSeq: 9292394834772304023312 OPTIONS
        Call-ID: scalarlg.noase0of0234hn2qofoaf0232aewf2394r
        Retry-After: 949302838503028349304023988
        Warning: 1812 overture "In Progress"
        Content-Length: 0


        """)

    static let quotbal = TortureMessage("quotbal", """
        INVITE sip:user@example.com SIP/2.0
        To: "Mr. J. User <sip:j.user@example.com>
        From: sip:caller@example.net;tag=93334
        Max-Forwards: 10
        Call-ID: quotbal.aksdj
        Contact: <sip:caller@host59.example.net>
        CSeq: 8 INVITE
        Via: SIP/2.0/UDP 192.0.2.59:5050;branch=z9hG4bKkdjuw39234
        Content-Type: application/sdp
        Content-Length: 150


        """ + tortureSDP)

    static let ltgtruri = TortureMessage("ltgtruri", """
        INVITE <sip:user@example.com> SIP/2.0
        To: sip:user@example.com
        From: sip:caller@example.net;tag=39291
        Max-Forwards: 23
        Call-ID: ltgtruri.1@192.0.2.5
        CSeq: 1 INVITE
        Via: SIP/2.0/UDP 192.0.2.5
        Contact: <sip:caller@host5.example.net>
        Content-Type: application/sdp
        Content-Length: 150


        """ + tortureSDP)

    static let lwsruri = TortureMessage("lwsruri", """
        INVITE sip:user@example.com; lr SIP/2.0
        To: sip:user@example.com;tag=3xfe-9921883-z9f
        From: sip:caller@example.net;tag=231413434
        Max-Forwards: 5
        Call-ID: lwsruri.asdfasdoeoi2323-asdfwrn23-asd834rk423
        CSeq: 2130706432 INVITE
        Via: SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bKkdjuw2395
        Contact: <sip:caller@host1.example.net>
        Content-Type: application/sdp
        Content-Length: 150


        """ + tortureSDP)

    static let lwsstart = TortureMessage("lwsstart", """
        INVITE  sip:user@example.com  SIP/2.0
        Max-Forwards: 8
        To: sip:user@example.com
        From: sip:caller@example.net;tag=8814
        Call-ID: lwsstart.dfknq234oi243099adsdfnawe3@example.com
        CSeq: 1893884 INVITE
        Via: SIP/2.0/UDP host1.example.com;branch=z9hG4bKkdjuw3923
        Contact: <sip:caller@host1.example.net>
        Content-Type: application/sdp
        Content-Length: 150


        """ + tortureSDP)

    static let trws = TortureMessage("trws", """
        OPTIONS sip:remote-target@example.com SIP/2.0\("  ")
        Via: SIP/2.0/TCP host1.example.com;branch=z9hG4bK299342093
        To: <sip:remote-target@example.com>
        From: <sip:local-resource@example.com>;tag=329429089
        Call-ID: trws.oicu34958239neffasdhr2345r
        Accept: application/sdp
        CSeq: 238923 OPTIONS
        Max-Forwards: 70
        Content-Length: 0


        """)

    static let escruri = TortureMessage("escruri", """
        INVITE sip:user@example.com?Route=%3Csip:example.com%3E SIP/2.0
        To: sip:user@example.com
        From: sip:caller@example.net;tag=341518
        Max-Forwards: 7
        Contact: <sip:caller@host39923.example.net>
        Call-ID: escruri.23940-asdfhj-aje3br-234q098w-fawerh2q-h4n5
        CSeq: 149209342 INVITE
        Via: SIP/2.0/UDP host-of-the-hour.example.com;branch=z9hG4bKkdjuw
        Content-Type: application/sdp
        Content-Length: 150


        """ + tortureSDP)

    static let baddate = TortureMessage("baddate", """
        INVITE sip:user@example.com SIP/2.0
        To: sip:user@example.com
        From: sip:caller@example.net;tag=2234923
        Max-Forwards: 70
        Call-ID: baddate.239423mnsadf3j23lj42--sedfnm234
        CSeq: 1392934 INVITE
        Via: SIP/2.0/UDP host.example.com;branch=z9hG4bKkdjuw
        Date: Fri, 01 Jan 2010 16:00:00 EST
        Contact: <sip:caller@host5.example.net>
        Content-Type: application/sdp
        Content-Length: 150


        """ + tortureSDP)

    static let regbadct = TortureMessage("regbadct", """
        REGISTER sip:example.com SIP/2.0
        To: sip:user@example.com
        From: sip:user@example.com;tag=998332
        Max-Forwards: 70
        Call-ID: regbadct.k345asrl3fdbv@10.0.0.1
        CSeq: 1 REGISTER
        Via: SIP/2.0/UDP 135.180.130.133:5060;branch=z9hG4bKkdjuw
        Contact: sip:user@example.com?Route=%3Csip:sip.example.com%3E
        l: 0


        """)

    static let badaspec = TortureMessage("badaspec", """
        OPTIONS sip:user@example.org SIP/2.0
        Via: SIP/2.0/UDP host4.example.com:5060;branch=z9hG4bKkdju43234
        Max-Forwards: 70
        From: "Bell, Alexander" <sip:a.g.bell@example.com>;tag=433423
        To: "Watson, Thomas" < sip:t.watson@example.org >
        Call-ID: badaspec.sdf0234n2nds0a099u23h3hnnw009cdkne3
        Accept: application/sdp
        CSeq: 3923239 OPTIONS
        l: 0


        """)

    static let baddn = TortureMessage("baddn", """
        OPTIONS sip:t.watson@example.org SIP/2.0
        Via:     SIP/2.0/UDP c.example.com:5060;branch=z9hG4bKkdjuw
        Max-Forwards:      70
        From:    Bell, Alexander <sip:a.g.bell@example.com>;tag=43
        To:      Watson, Thomas <sip:t.watson@example.org>
        Call-ID: baddn.31415@c.example.com
        Accept: application/sdp
        CSeq:    3923239 OPTIONS
        l: 0


        """)

    static let badvers = TortureMessage("badvers", """
        OPTIONS sip:t.watson@example.org SIP/7.0
        Via:     SIP/7.0/UDP c.example.com;branch=z9hG4bKkdjuw
        Max-Forwards:     70
        From:    A. Bell <sip:a.g.bell@example.com>;tag=qweoiqpe
        To:      T. Watson <sip:t.watson@example.org>
        Call-ID: badvers.31417@c.example.com
        CSeq:    1 OPTIONS
        l: 0


        """)

    static let mismatch01 = TortureMessage("mismatch01", """
        OPTIONS sip:user@example.com SIP/2.0
        To: sip:j.user@example.com
        From: sip:caller@example.net;tag=34525
        Max-Forwards: 6
        Call-ID: mismatch01.dj0234sxdfl3
        CSeq: 8 INVITE
        Via: SIP/2.0/UDP host.example.com;branch=z9hG4bKkdjuw
        l: 0


        """)

    static let mismatch02 = TortureMessage("mismatch02", """
        NEWMETHOD sip:user@example.com SIP/2.0
        To: sip:j.user@example.com
        From: sip:caller@example.net;tag=34525
        Max-Forwards: 6
        Call-ID: mismatch02.dj0234sxdfl3
        CSeq: 8 INVITE
        Contact: <sip:caller@host.example.net>
        Via: SIP/2.0/UDP host.example.net;branch=z9hG4bKkdjuw
        Content-Type: application/sdp
        l: 138

        v=0
        o=mhandley 29739 7272939 IN IP4 192.0.2.1
        c=IN IP4 192.0.2.1
        m=audio 49217 RTP/AVP 0 12
        m=video 3227 RTP/AVP 31
        a=rtpmap:31 LPC

        """)

    static let bigcode = TortureMessage("bigcode", """
        SIP/2.0 4294967301 better not break the receiver
        Via: SIP/2.0/UDP 192.0.2.105;branch=z9hG4bK2398ndaoe
        Call-ID: bigcode.asdof3uj203asdnf3429uasdhfas3ehjasdfas9i
        CSeq: 353494 INVITE
        From: <sip:user@example.com>;tag=39ansfi3
        To: <sip:user@example.edu>;tag=902jndnke3
        Content-Length: 0
        Contact: <sip:user@host105.example.com>


        """)

    /// §3.2.1: the branch is the bare magic cookie. The RFC allows a 400 or a fall back to RFC 2543 matching;
    /// we answer 400.
    static let badbranch = TortureMessage("badbranch", """
        OPTIONS sip:user@example.com SIP/2.0
        To: sip:user@example.com
        From: sip:caller@example.org;tag=33242
        Max-Forwards: 3
        Via: SIP/2.0/UDP 192.0.2.1;branch=z9hG4bK
        Accept: application/sdp
        Call-ID: badbranch.sadonfo23i420jv0as0derf3j3n
        CSeq: 8 OPTIONS
        l: 0


        """)

    static let insuf = TortureMessage("insuf", """
        INVITE sip:user@example.com SIP/2.0
        CSeq: 193942 INVITE
        Via: SIP/2.0/UDP 192.0.2.95;branch=z9hG4bKkdj.insuf
        Content-Type: application/sdp
        l: 150


        """ + tortureSDP)

    /// §3.3.4: To and From with schemes that are not SIP URIs; we answer 416 Unsupported URI Scheme.
    static let unksm2 = TortureMessage("unksm2", """
        REGISTER sip:example.com SIP/2.0
        To: isbn:2983792873
        From: <http://www.example.com>;tag=3234233
        Call-ID: unksm2.daksdj@hyphenated-host.example.com
        CSeq: 234902 REGISTER
        Max-Forwards: 70
        Via: SIP/2.0/UDP 192.0.2.21:5060;branch=z9hG4bKkdjuw
        Contact: <name:John_Smith>
        l: 0


        """)

    static let unkscm = TortureMessage("unkscm", """
        OPTIONS nobodyKnowsThisScheme:totallyopaquecontent SIP/2.0
        To: sip:user@example.com
        From: sip:caller@example.net;tag=384
        Max-Forwards: 3
        Call-ID: unkscm.nasdfasser0q239nwsdfasdkl34
        CSeq: 3923423 OPTIONS
        Via: SIP/2.0/TCP host9.example.com;branch=z9hG4bKkdjuw39234
        Content-Length: 0


        """)

    static let multi01 = TortureMessage("multi01", """
        INVITE sip:user@company.com SIP/2.0
        Contact: <sip:caller@host25.example.net>
        Via: SIP/2.0/UDP 192.0.2.25;branch=z9hG4bKkdjuw
        Max-Forwards: 70
        CSeq: 5 INVITE
        Call-ID: multi01.98asdh@192.0.2.1
        CSeq: 59 INVITE
        Call-ID: multi01.98asdh@192.0.2.2
        From: sip:caller@example.com;tag=3413415
        To: sip:user@example.com
        To: sip:other@example.net
        From: sip:caller@example.net;tag=2923420123
        Content-Type: application/sdp
        l: 150
        Contact: <sip:caller@host36.example.net>
        Max-Forwards: 5


        """ + tortureSDP)

    static let mcl01 = TortureMessage("mcl01", """
        OPTIONS sip:user@example.com SIP/2.0
        Via: SIP/2.0/UDP host5.example.net;branch=z9hG4bK293423
        To: sip:user@example.com
        From: sip:other@example.net;tag=3923942
        Call-ID: mcl01.fhn2323orihawfdoa3o4r52o3irsdf
        CSeq: 15932 OPTIONS
        Content-Length: 13
        Max-Forwards: 60
        Content-Length: 5
        Content-Type: text/plain

        There's no way to know how many octets are supposed to be here.
        """)

    static let all: [Case] = [
        Case(message: badinv01, status: 400), Case(message: clerr, status: 400), Case(message: ncl, status: 400),
        Case(message: scalar02, status: 400), Case(message: scalarlg, status: 400), Case(message: quotbal, status: 400),
        Case(message: ltgtruri, status: 400), Case(message: lwsruri, status: 400), Case(message: lwsstart, status: 400),
        Case(message: trws, status: 400), Case(message: escruri, status: 400), Case(message: baddate, status: 400),
        Case(message: regbadct, status: 400), Case(message: badaspec, status: 400), Case(message: baddn, status: 400),
        Case(message: badvers, status: 505), Case(message: mismatch01, status: 400),
        Case(message: mismatch02, status: 400), Case(message: bigcode, status: 400),
        Case(message: badbranch, status: 400), Case(message: insuf, status: 400), Case(message: unksm2, status: 416),
        Case(message: unkscm, status: 416), Case(message: multi01, status: 400), Case(message: mcl01, status: 400),
    ]
}

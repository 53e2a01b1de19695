/// RFC 4475 §3.1.1 (and §3.3 where the message is well formed): messages a parser must accept. Written out
/// from the RFC's text, not byte-compared with it; `longreq` and the binary part of `mpart01` are rebuilt from
/// their descriptions.
enum ValidTortureMessages {
    static let wsinv = TortureMessage("wsinv", """
        INVITE sip:vivekg@chair-dnrc.example.com;unknownparam SIP/2.0
        TO :
         sip:vivekg@chair-dnrc.example.com ;   tag    = 1918181833n
        from   : "J Rosenberg \\\\\\""       <sip:jdrosen@example.com>
          ;
          tag = 98asjd8
        MaX-fOrWaRdS: 0068
        Call-ID: wsinv.ndaksdj@192.0.2.1
        Content-Length   : 150
        cseq: 0009
          INVITE
        Via  : SIP  /   2.0
         /UDP
            192.0.2.2;rport;branch=390skdjuw
        s :
        NewFangledHeader:   newfangled value
         continued newfangled value
        UnknownHeaderWithUnusualValue: ;;,,;;,;
        Content-Type: application/sdp
        Route:
         <sip:services.example.com;lr;unknownwith=value;unknown-no-value>
        v:  SIP  / 2.0  / TCP     spindle.example.com   ;
          branch  =   z9hG4bK9ikj8  ,
         SIP  /    2.0   / UDP  192.168.255.111   ; branch=
         z9hG4bK30239
        m:"Quoted string \\"\\"" <sip:jdrosen@example.com> ; newparam =
              newvalue ;
          secondparam ; q = 0.33


        """ + tortureSDP)

    static let intmeth = TortureMessage("intmeth", """
        !interesting-Method0123456789_*+`.%indeed'~ sip:1_unusual.URI~(to-be!sure)&isn't+it$/crazy?,/;;*:&it+has=1,weird!*pas$wo~d_too.(doesn't-it)@example.com SIP/2.0
        Via: SIP/2.0/TCP host1.example.com;branch=z9hG4bK-.!%66*_+`'~
        To: "BEL:\\\u{07} NUL:\\\u{00} DEL:\\\u{7F}" <sip:1_unusual.URI~(to-be!sure)&isn't+it$/crazy?,/;;*@example.com>
        From: token1~` token2'+_ token3*%!.- <sip:mundane@example.com>;fromParam''~+*_!.-%="\u{440}\u{430}\u{431}\u{43E}\u{442}\u{430}\u{44E}\u{449}\u{438}\u{439}";tag=_token~1'+`*%!-.
        Call-ID: intmeth.word%ZK-!.*_+'@word`~)(><:\\/"][?}{
        CSeq: 139122385 !interesting-Method0123456789_*+`.%indeed'~
        Max-Forwards: 255
        extensionHeader-!.%*+_`'~:\u{FEFF}\u{5927}\u{505C}\u{96FB}
        Content-Length: 0


        """)

    static let esc01 = TortureMessage("esc01", """
        INVITE sip:sips%3Auser%40example.com@example.net SIP/2.0
        To: sip:%75se%72@example.com
        From: <sip:I%20have%20spaces@example.net>;tag=938
        Max-Forwards: 87
        i: esc01.239409asdfakjkn23onasd0-3234
        CSeq: 234234 INVITE
        Via: SIP/2.0/UDP host5.example.net;branch=z9hG4bKkdjuw
        C: application/sdp
        Contact:
          <sip:cal%6Cer@host5.example.net;%6C%72;n%61me=v%61lue%25%34%31>
        Content-Length: 150


        """ + tortureSDP)

    static let escnull = TortureMessage("escnull", """
        REGISTER sip:example.com SIP/2.0
        To: sip:null-%00-null@example.com
        From: sip:null-%00-null@example.com;tag=839923423
        Max-Forwards: 70
        Call-ID: escnull.39203ndfvkjdasfkq3w4otrq0adsfdfnavd
        CSeq: 14398234 REGISTER
        Via: SIP/2.0/UDP host5.example.com;branch=z9hG4bKkdjuw
        Contact: <sip:%00@host5.example.com>
        Contact: <sip:%00%00@host5.example.com>
        L:0


        """)

    static let esc02 = TortureMessage("esc02", """
        RE%47IST%45R sip:registrar.example.com SIP/2.0
        To: "%Z%45" <sip:resource@example.com>
        From: "%Z%45" <sip:resource@example.com>;tag=f232jadfj23
        Call-ID: esc02.asdfnqwo34rq23i34jrjasdcnl23nrlknsdf
        Via: SIP/2.0/TCP host.example.com;rport;branch=z9hG4bK209asdjf
        CSeq: 29344 RE%47IST%45R
        Max-Forwards: 70
        Contact: <sip:alias1@host1.example.com>
        C%6Fntact: <sip:alias2@host2.example.com>
        Contact: <sip:alias3@host3.example.com>
        l: 0


        """)

    static let lwsdisp = TortureMessage("lwsdisp", """
        OPTIONS sip:user@example.com SIP/2.0
        To: sip:user@example.com
        From: caller<sip:caller@example.com>;tag=323
        Max-Forwards: 70
        Call-ID: lwsdisp.1234abcd@funky.example.com
        CSeq: 60 OPTIONS
        Via: SIP/2.0/UDP funky.example.com;branch=z9hG4bKkdjuw
        l: 0


        """)

    /// §3.1.1.7: long values everywhere — a 1000+ character header, long tags, a Via list of dozens of entries.
    static let longreq: TortureMessage = {
        let long = String(repeating: "amazinglylongcallid", count: 20)
        let longTag = String(repeating: "longtag", count: 40)
        let via = (1...34).map { "Via: SIP/2.0/TCP sip\($0).example.com;branch=z9hG4bK\($0)aaaaaaaa" }
            .joined(separator: "\n")
        let route = (1...6).map { "<sip:\(long)@route\($0).example.com;lr>" }.joined(separator: ",")
        return TortureMessage("longreq", """
            INVITE sip:user@example.com SIP/2.0
            To: "I have a user name of \(String(repeating: "extreme", count: 20)) proportion" <sip:user@example.com:6000;unknownparam1=very\(String(repeating: "long", count: 50))value;longparam\(String(repeating: "name", count: 25))=shortvalue>
            From: sip:\(String(repeating: "amazinglylongcallername", count: 10))@example.net;tag=12\(longTag)
            Call-ID: longreq.one\(long)
            CSeq: 3882340 INVITE
            Unknown-\(String(repeating: "Long", count: 30))-Name: unknown-\(String(repeating: "long", count: 30))-value; unknown-\(String(repeating: "long", count: 30))-parameter-name = unknown-\(String(repeating: "long", count: 30))-parameter-value
            \(via)
            Max-Forwards: 70
            Contact: <sip:amazinglylongcallername@host5.example.net>
            Route: \(route)
            Content-Type: application/sdp
            l: 150


            """ + tortureSDP)
    }()

    /// §3.1.1.8: a REGISTER with Content-Length 0 and an INVITE behind it in the same datagram.
    static let dblreq = TortureMessage("dblreq", """
        REGISTER sip:example.com SIP/2.0
        To: sip:j.user@example.com
        From: sip:j.user@example.com;tag=43251j3j324
        Max-Forwards: 8
        I: dblreq.0ha0isndaksdj99sdfafnl3lk233412
        Contact: sip:j.user@host.example.com
        CSeq: 8 REGISTER
        Via: SIP/2.0/UDP 192.0.2.125;branch=z9hG4bKkdjuw23492
        Content-Length: 0


        INVITE sip:joe@example.com SIP/2.0
        t: sip:joe@example.com
        From: sip:caller@example.net;tag=141334
        Max-Forwards: 8
        Call-ID: dblreq.0ha0isnda977644900765@192.0.2.15
        CSeq: 8 INVITE
        Via: SIP/2.0/UDP 192.0.2.15;branch=z9hG4bKkdjuw380234
        Content-Type: application/sdp
        Content-Length: 150


        """ + tortureSDP)

    static let semiuri = TortureMessage("semiuri", """
        OPTIONS sip:user;par=u%40example.net@example.com SIP/2.0
        To: sip:j_user@example.com
        From: sip:caller@example.org;tag=33242
        Max-Forwards: 3
        Call-ID: semiuri.0ha0isndaksdj
        CSeq: 8 OPTIONS
        Accept: application/sdp, application/pkcs7-mime,
                multipart/mixed, multipart/signed,
                message/sip, message/sipfrag
        Via: SIP/2.0/UDP 192.0.2.1;branch=z9hG4bKkdjuw
        l: 0


        """)

    static let transports = TortureMessage("transports", """
        OPTIONS sip:user@example.com SIP/2.0
        To: sip:user@example.com
        From: <sip:caller@example.com>;tag=323
        Max-Forwards: 70
        Call-ID:  transports.kijh4akdnaqjkwendsasfdj
        Accept: application/sdp
        CSeq: 60 OPTIONS
        Via: SIP/2.0/UDP t1.example.com;branch=z9hG4bKkdjuw
        Via: SIP/2.0/SCTP t2.example.com;branch=z9hG4bKklasjdhf
        Via: SIP/2.0/TLS t3.example.com;branch=z9hG4bK2980unddj
        Via: SIP/2.0/UNKNOWN t4.example.com;branch=z9hG4bKasd0f3en
        Via: SIP/2.0/TCP t5.example.com;branch=z9hG4bK0a9idfnee
        l: 0


        """)

    /// §3.1.1.11: a multipart body; the binary S/MIME part is replaced by bytes of the same kind (the RFC
    /// gives it in hex), and Content-Length is that of this body.
    static let mpart01: TortureMessage = {
        let body = """
            --====boundary====
            Content-Type: application/sdp

            v=0
            o=- 3149328700 0 IN IP4 192.0.2.1
            s=-
            c=IN IP4 192.0.2.1
            t=0 0
            m=audio 49217 RTP/AVP 0
            a=rtpmap:0 PCMU/8000

            --====boundary====
            Content-Type: application/pkcs7-signature
            Content-Transfer-Encoding: binary

            0\u{01}\u{02}\u{03}signature-bytes
            --====boundary====--

            """
        let length = body.utf8.count + body.utf8.filter { $0 == UInt8(ascii: "\n") }.count
        return TortureMessage("mpart01", """
            MESSAGE sip:kumiko@example.org SIP/2.0
            Via: SIP/2.0/UDP 192.0.2.2:5060;branch=z9hG4bK1pdvaj
            Max-Forwards: 70
            From: <sip:ivan@example.com>;tag=32jkdfs
            To: <sip:kumiko@example.org>
            Call-ID: mpart01.9eoaudkjd5ld8ef0s
            CSeq: 1 MESSAGE
            Content-Type: multipart/mixed;boundary="====boundary===="
            Content-Length: \(length)


            """ + body)
    }()

    static let unreason = TortureMessage("unreason", """
        SIP/2.0 200 = 2**3 * 5**2 \u{43D}\u{43E} \u{441}\u{442}\u{43E} \u{434}\u{435}\u{432}\u{44F}\u{43D}\u{43E}\u{441}\u{442}\u{43E} \u{434}\u{435}\u{432}\u{44F}\u{442}\u{44C} - \u{43F}\u{440}\u{43E}\u{441}\u{442}\u{43E}\u{435}
        Via: SIP/2.0/UDP 192.0.2.198;branch=z9hG4bK1324923
        Call-ID: unreason.1234ksdfak3j2erwedfsASdf
        CSeq: 35 INVITE
        From: sip:user@example.com;tag=11141343
        To: sip:user@example.edu;tag=2229
        Content-Length: 154
        Content-Type: application/sdp
        Contact: <sip:user@host198.example.com>

        v=0
        o=mhandley 29739 7272939 IN IP4 192.0.2.198
        s=-
        c=IN IP4 192.0.2.198
        t=0 0
        m=audio 49217 RTP/AVP 0 12
        m=video 3227 RTP/AVP 31
        a=rtpmap:31 LPC

        """)

    static let noreason = TortureMessage("noreason", """
        SIP/2.0 100 \("")
        Via: SIP/2.0/UDP 192.0.2.105;branch=z9hG4bK2398ndaoe
        Call-ID: noreason.asndj203insdf99223ndf
        CSeq: 35 INVITE
        From: <sip:user@example.com>;tag=39ansfi3
        To: <sip:user@example.edu>;tag=902jndnke3
        Content-Length: 0
        Contact: <sip:user@host105.example.com>


        """)

    /// §3.3.10: well formed; a UA discards it for its second Via (RFC 3261 §8.1.3.3), it does not answer it.
    static let bcast = TortureMessage("bcast", """
        SIP/2.0 200 OK
        Via: SIP/2.0/UDP 192.0.2.198;branch=z9hG4bK1324923
        Via: SIP/2.0/UDP 255.255.255.255;branch=z9hG4bK1saber23
        Call-ID: bcast.0384840201234ksdfak3j2erwedfsASdf
        CSeq: 35 INVITE
        From: sip:user@example.com;tag=11141343
        To: sip:user@example.edu;tag=2229
        Content-Length: 154
        Content-Type: application/sdp
        Contact: <sip:user@host28.example.com>

        v=0
        o=mhandley 29739 7272939 IN IP4 192.0.2.198
        s=-
        c=IN IP4 192.0.2.198
        t=0 0
        m=audio 49217 RTP/AVP 0 12
        m=video 3227 RTP/AVP 31
        a=rtpmap:31 LPC

        """)

    /// §3.3.5: well formed; the UAS answers 420 with Unsupported (see `UASPolicy`).
    static let bext01 = TortureMessage("bext01", """
        OPTIONS sip:user@example.com SIP/2.0
        To: sip:j_user@example.com
        From: sip:caller@example.net;tag=242etr
        Max-Forwards: 6
        Call-ID: bext01.0ha0isndaksdj
        Require: nothingSupportedHere
        Proxy-Require: noProxiesSupportThis, nothingSupportedHere
        Proxy-Require: longerHeaderName, nothingSupportedHere
        CSeq: 8 OPTIONS
        Via: SIP/2.0/UDP host1.example.com;branch=z9hG4bKkdjuw
        l: 0


        """)

    /// §3.3.15: well formed; the UAS answers 406 (Accept without application/sdp, see `UASPolicy`).
    static let sdp01 = TortureMessage("sdp01", """
        INVITE sip:user@example.com SIP/2.0
        To: sip:j_user@example.com
        Contact: <sip:caller@host15.example.net>
        From: sip:caller@example.net;tag=234
        Max-Forwards: 5
        Call-ID: sdp01.ndaksdj9342dasdd
        Accept: text/nobodyKnowsThis
        CSeq: 8 INVITE
        Via: SIP/2.0/UDP 192.0.2.15;branch=z9hG4bKkdjuw
        Content-Length: 150
        Content-Type: application/sdp


        """ + tortureSDP)

    static let all: [TortureMessage] = [
        wsinv, intmeth, esc01, escnull, esc02, lwsdisp, longreq, dblreq, semiuri, transports, mpart01, unreason,
        noreason, bcast, bext01, sdp01,
    ]
}

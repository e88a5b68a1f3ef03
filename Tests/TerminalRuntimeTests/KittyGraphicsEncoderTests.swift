import Foundation
import HeadlessUI
import HeadlessUITesting
import Images
import TerminalCore
import TerminalRuntime
import Testing

@Suite("Kitty graphics: the commands' bytes and the terminal's answers")
struct KittyGraphicsEncoderTests {
    /// The APC strings in `bytes`, each as its keys and its payload.
    private func commands(_ bytes: [UInt8]) -> [(keys: String, payload: String)] {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.components(separatedBy: "\u{1B}\\").dropLast().map { part in
            #expect(part.hasPrefix("\u{1B}_G"), "\(part.debugDescription)")
            let body = part.dropFirst(3)
            let pieces = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(pieces[0]), pieces.count > 1 ? String(pieces[1]) : "")
        }
    }

    private func bitmap(width: Int, height: Int, alpha: UInt8 = 255) throws -> Bitmap {
        var rgba: [UInt8] = []
        for index in 0..<(width * height) {
            rgba += [UInt8(index & 0xFF), UInt8((index >> 8) & 0xFF), UInt8((index * 7) & 0xFF), alpha]
        }
        return try #require(Bitmap(width: width, height: height, rgba: rgba))
    }

    @Test func anOpaquePictureGoesAsRGBInOneCommand() throws {
        let picture = try #require(Bitmap(width: 2, height: 1, rgba: [255, 0, 0, 255, 0, 0, 255, 255]))
        let bytes = KittyGraphics.transmit(picture, id: 7)
        let expected =
            "\u{1B}_Ga=t,f=24,s=2,v=1,i=7,t=d,q=2,m=0;" + Data([255, 0, 0, 0, 0, 255]).base64EncodedString()
            + "\u{1B}\\"
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    @Test func aPictureWithTransparencyGoesAsRGBA() throws {
        let picture = try #require(Bitmap(width: 1, height: 2, rgba: [1, 2, 3, 255, 4, 5, 6, 0]))
        let sent = commands(KittyGraphics.transmit(picture, id: 9))
        #expect(sent.count == 1)
        #expect(sent[0].keys == "a=t,f=32,s=1,v=2,i=9,t=d,q=2,m=0")
        #expect(Data(base64Encoded: sent[0].payload) == Data([1, 2, 3, 255, 4, 5, 6, 0]))
    }

    @Test func aLargePictureIsCutIntoChunksOfAtMost4096BytesThatJoinIntoItsPixels() throws {
        let picture = try bitmap(width: 64, height: 48, alpha: 200)  // 12,288 bytes, 16,384 in base64
        let sent = commands(KittyGraphics.transmit(picture, id: 3))
        #expect(sent.count == 4)
        #expect(sent[0].keys == "a=t,f=32,s=64,v=48,i=3,t=d,q=2,m=1")
        #expect(sent.dropFirst().dropLast().allSatisfy { $0.keys == "m=1" })
        #expect(sent.last?.keys == "m=0")
        #expect(sent.allSatisfy { $0.payload.utf8.count <= KittyGraphics.maximumChunkSize })
        // Every chunk is a whole number of base64 quads, so no padding lands mid-stream.
        #expect(sent.dropLast().allSatisfy { $0.payload.utf8.count % 4 == 0 && !$0.payload.contains("=") })
        let joined = try #require(Data(base64Encoded: sent.map(\.payload).joined()))
        #expect(Array(joined) == picture.rgba)

        let odd = try bitmap(width: 33, height: 31)  // 3,069 RGB bytes → 4,092 base64: one chunk
        let oneChunk = commands(KittyGraphics.transmit(odd, id: 4))
        #expect(oneChunk.count == 1 && oneChunk[0].keys.hasSuffix("m=0"))
    }

    @Test func placementsDeletionsAndTheQueryAreTheProtocolsCommands() throws {
        func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
        #expect(
            text(KittyGraphics.place(id: 2, placement: 5, columns: 40, rows: 12))
                == "\u{1B}_Ga=p,i=2,p=5,c=40,r=12,C=1,q=2\u{1B}\\")
        #expect(
            text(KittyGraphics.place(id: 2, placement: 6, columns: 10, rows: 3, source: (0, 20, 100, 60)))
                == "\u{1B}_Ga=p,i=2,p=6,c=10,r=3,x=0,y=20,w=100,h=60,C=1,q=2\u{1B}\\")
        #expect(
            text(KittyGraphics.deletePlacement(id: 2, placement: 5)) == "\u{1B}_Ga=d,d=i,i=2,p=5,q=2\u{1B}\\")
        #expect(text(KittyGraphics.deleteImage(id: 2)) == "\u{1B}_Ga=d,d=I,i=2,q=2\u{1B}\\")
        #expect(text(KittyGraphics.query(id: 31)) == "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c")
    }

    // MARK: Answers

    private let okay = Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8)
    private let attributes = Array("\u{1B}[?62;22c".utf8)

    /// Feeds `bytes` to a decoder in reads cut at `cuts`, then the probe; returns the probe's
    /// answer (or the timeout's) and the events that were not replies.
    private func probe(_ bytes: [UInt8], cutAt cuts: [Int] = []) -> (KittyGraphicsProbe.Answer?, [InputEvent])
    {
        var decoder = InputDecoder()
        var probe = KittyGraphicsProbe()
        var others: [InputEvent] = []
        var start = 0
        for end in cuts + [bytes.count] {
            for event in decoder.feed(bytes[start..<end]) {
                if case .reply(let reply) = event { probe.receive(reply) } else { others.append(event) }
            }
            start = end
        }
        return (probe.answer, others)
    }

    @Test func anOKBeforeTheDeviceAttributesIsAYesWhereverTheReadsSplitIt() throws {
        let bytes = okay + attributes
        #expect(probe(bytes).0 == .supported)
        for cut in 1..<bytes.count {
            #expect(probe(bytes, cutAt: [cut]).0 == .supported, "cut at \(cut)")
        }
        #expect(probe(bytes, cutAt: Array(1..<bytes.count)).0 == .supported, "one byte a read")
    }

    @Test func theDeviceAttributesAloneAreANoAsSoonAsTheyCome() throws {
        let (answer, others) = probe(attributes)
        #expect(answer == .unsupported("the terminal did not answer the graphics query"))
        #expect(others.isEmpty)
    }

    @Test func anErrorReplyIsANoWithTheTerminalsReason() throws {
        let refusal = Array("\u{1B}_Gi=31;ENOTSUPPORTED:inline data is off\u{1B}\\".utf8) + attributes
        #expect(
            probe(refusal, cutAt: [5, 20]).0
                == .unsupported("the terminal refused the graphics query: ENOTSUPPORTED:inline data is off"))
    }

    @Test func silenceIsANoAfterTheTimeoutAndAnAnswerAfterItChangesNothing() throws {
        var probe = KittyGraphicsProbe()
        #expect(probe.timeout == .milliseconds(250), "the default")
        #expect(probe.answer == nil)
        #expect(probe.timedOut() == .unsupported("the terminal answered no query within 0.25 seconds"))
        #expect(probe.receive(.kittyGraphics(id: 31, message: "OK")) == probe.answer)
        #expect(probe.answer != .supported)
    }

    @Test func aGivenTimeoutIsTheOneTheNoNames() {
        var probe = KittyGraphicsProbe(timeout: .seconds(2))
        #expect(probe.timeout == .seconds(2))
        #expect(probe.timedOut() == .unsupported("the terminal answered no query within 2.0 seconds"))
    }

    @Test func terminalsThatWouldShowTheQueryAreNotAsked() {
        #expect(KittyGraphicsProbe.mayAsk(environment: ["TERM": "xterm-kitty"]))
        #expect(KittyGraphicsProbe.mayAsk(environment: ["TERM": "xterm-256color", "TMUX": ""]))
        // tmux would make the query its pane's title; screen its hardstatus; the console prints it.
        for environment in [
            ["TERM": "xterm-256color", "TMUX": "/tmp/tmux-0/default,42,0"], ["TERM": "tmux-256color"],
            ["TERM": "screen.xterm-256color"], ["TERM": "xterm", "STY": "42.pts-0.host"], ["TERM": "linux"],
            ["TERM": "dumb"], [:],
        ] {
            #expect(!KittyGraphicsProbe.mayAsk(environment: environment), "\(environment)")
        }
        #expect(
            KittyGraphicsProbe.reasonNotToAsk(environment: ["TERM": "xterm-256color", "TMUX": "/tmp/t,1,0"])?
                .hasPrefix("inside tmux") == true)
        #expect(
            KittyGraphicsProbe.reasonNotToAsk(environment: ["TERM": "screen-256color"])?.contains("screen")
                == true)
        #expect(
            KittyGraphicsProbe.reasonNotToAsk(environment: [:])
                == "a terminal without a known type (TERM is unset)")
    }

    @Test func keysTypedAmongTheRepliesStayKeysAndOtherImagesRepliesAreIgnored() throws {
        let bytes =
            Array("a".utf8) + Array("\u{1B}_Gi=5;OK\u{1B}\\".utf8) + okay + Array("\u{1B}[A".utf8)
            + attributes
        let (answer, others) = probe(bytes, cutAt: [2, 9, 17])
        #expect(answer == .supported)
        #expect(others == [.key(KeyPress("a")), .key(KeyPress(.up))])
    }

    @Test func repliesAreDecodedAndAnUnfinishedOneIsDroppedNotTyped() throws {
        var decoder = InputDecoder()
        #expect(
            decoder.feed(Array("\u{1B}_Gi=31,p=4;ENOENT:no such image\u{1B}\\".utf8))
                == [.reply(.kittyGraphics(id: 31, message: "ENOENT:no such image"))])
        #expect(decoder.feed(Array("\u{1B}[?1;2c".utf8)) == [.reply(.deviceAttributes([1, 2]))])
        // Other APC strings and control characters in a message never come out as text.
        #expect(decoder.feed(Array("\u{1B}_Xhello\u{1B}\\".utf8)).isEmpty)
        #expect(
            decoder.feed(Array("\u{1B}_Gi=2;bad\u{7F}byte\u{1B}\\".utf8))
                == [.reply(.kittyGraphics(id: 2, message: "bad?byte"))])
        #expect(decoder.feed(Array("\u{1B}_Gi=31;O".utf8)).isEmpty)
        #expect(decoder.flush().isEmpty)
        #expect(!decoder.hasPendingInput)
    }

    @Test func aVirtualTerminalAnswersTheQueryAsKittyOrAsATerminalWithoutGraphics() throws {
        for speaks in [true, false] {
            var terminal = VirtualTerminal(width: 10, height: 2, kittyGraphics: speaks)
            var probe = KittyGraphicsProbe()
            terminal.apply(probe.query)
            var decoder = InputDecoder()
            for case .reply(let reply) in decoder.feed(terminal.takeReplies()) { probe.receive(reply) }
            #expect((probe.answer == .supported) == speaks)
            let blank = terminal.text.allSatisfy { $0.isWhitespace }
            #expect(blank, "the query prints nothing")
            #expect(terminal.graphics.images.isEmpty, "a query stores no image")
        }
    }
}

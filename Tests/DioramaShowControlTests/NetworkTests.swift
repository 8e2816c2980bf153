import Testing
@testable import DioramaShowControl

/// Everything that sends or receives UDP with liblo, one test at a time: liblo 0.31 sends from the socket of the last
/// server it made (a process-wide variable), so a server freed by a test running beside another would pull that
/// socket out from under the other's sends.
@Suite("OSC over UDP", .serialized)
struct NetworkTests {
    @Suite("OSCControl")
    struct Control {
        @Test("each command sent with liblo comes out of poll() in order, once")
        func commandsInOrder() throws {
            let control = try OSCControl(port: 0)
            #expect(control.port > 0)
            let sent: [(OSCMessage, ShowCommand)] = [
                (OSCMessage("/diorama/go"), .go),
                (OSCMessage("/diorama/next", [.float(1)]), .next),
                (OSCMessage("/diorama/previous"), .previous),
                (OSCMessage("/diorama/pause"), .pause),
                (OSCMessage("/diorama/resume", [.true]), .resume),
                (OSCMessage("/diorama/scene", [.string("ocean")]), .scene(.id("ocean"))),
                (OSCMessage("/diorama/scene", [.int32(3)]), .scene(.number(3))),
                (OSCMessage("/diorama/seek", [.float(12.5)]), .seek(12.5)),
                (OSCMessage("/diorama/volume", [.double(0.75)]), .volume(0.75)),
                (OSCMessage("/diorama/language", [.string("ja")]), .language("ja")),
                (OSCMessage("/diorama/reload", [.int32(1)]), .reload),
            ]
            for (message, _) in sent {
                #expect(sendWithLiblo(message, port: control.port))
            }
            // A button's release is no command.
            #expect(sendWithLiblo(OSCMessage("/diorama/next", [.float(0)]), port: control.port))
            #expect(control.waitUntilHandled(packets: sent.count + 1))
            #expect(control.poll() == sent.map(\.1))
            #expect(control.poll() == [])
            #expect(control.takeWarnings() == [])
        }

        @Test("a bundle's commands arrive in order")
        func bundleCommands() throws {
            let control = try OSCControl(port: 0)
            let packet = bundle([serialised(OSCMessage("/diorama/scene", [.int32(2)])), serialised(OSCMessage("/diorama/pause"))])
            #expect(sendRaw(packet, port: control.port))
            #expect(control.waitUntilHandled(packets: 1))
            #expect(control.poll() == [.scene(.number(2)), .pause])
        }

        @Test("bad messages give one warning per kind, however many are sent, and the good ones still pass")
        func warningsOncePerKind() throws {
            let control = try OSCControl(port: 0)
            let bad = [
                OSCMessage("/diorama/nxt"),
                OSCMessage("/diorama/volume", [.string("loud")]),
                OSCMessage("/diorama/volume", [.float(2)]),
            ]
            for round in 0..<5 {
                for message in bad { #expect(sendWithLiblo(message, port: control.port)) }
                #expect(sendWithLiblo(OSCMessage("/diorama/volume", [.float(-Float(round))]), port: control.port))
                #expect(sendWithLiblo(OSCMessage("/diorama/next"), port: control.port))
            }
            #expect(control.waitUntilHandled(packets: 25))
            #expect(control.poll() == [.volume(0)] + Array(repeating: .next, count: 5))
            let warnings = control.takeWarnings()
            #expect(warnings.count == 3)
            #expect(warnings[0].hasPrefix("warning: osc: ignored OSC from 127.0.0.1:"))
            #expect(warnings[0].contains("/diorama/nxt is not a show-control address\n  hint: the player answers /diorama/go, "))
            #expect(warnings[1].contains("/diorama/volume does not take the argument types ,s\n  hint: /diorama/volume takes one number"))
            #expect(warnings[2].contains("/diorama/volume: 2.0 is outside 0...1"))
            #expect(control.takeWarnings() == [])

            for message in bad { #expect(sendWithLiblo(message, port: control.port)) }
            #expect(control.waitUntilHandled(packets: 28))
            #expect(control.takeWarnings() == [], "said once, not once per call")
        }

        @Test("huge and garbage packets are warned about once per kind and do not stop the thread")
        func hugeAndGarbage() throws {
            let control = try OSCControl(port: 0)
            var random = SplitMix64(state: 9)
            let huge = [UInt8](repeating: 0x2f, count: 60000)
            let justTooLarge = serialised(OSCMessage("/diorama/language", [.string(String(repeating: "x", count: OSCControl.maximumPacketSize))]))
            var packets: [[UInt8]] = [huge, huge, justTooLarge, [0xff], [0, 0, 0], Array("/diorama/next".utf8)]
            for _ in 0..<200 {
                packets.append((0..<Int.random(in: 1...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            }
            // One at a time: a burst of them would overflow the socket's receive buffer, and the kernel would drop some.
            for (index, packet) in packets.enumerated() {
                #expect(sendRaw(packet, port: control.port))
                #expect(control.waitUntilHandled(packets: index + 1))
            }
            #expect(sendWithLiblo(OSCMessage("/diorama/next"), port: control.port))
            #expect(control.waitUntilHandled(packets: packets.count + 1))
            #expect(control.poll() == [.next])
            let warnings = control.takeWarnings()
            let tooLarge = warnings.filter { $0.contains("byte packet from 127.0.0.1:") && $0.contains("show control takes packets up to 4096 bytes") }
            #expect(tooLarge.count == 1, "\(warnings)")
            #expect(tooLarge.first?.contains("ignored a 60000-byte packet") == true)
            #expect(warnings.contains { $0.contains("that is not OSC: ") })
            #expect(warnings.count <= 12, "one per reason: \(warnings)")
        }

        @Test("past the queue's capacity commands are dropped, said once")
        func boundedQueue() throws {
            let control = try OSCControl(port: 0, queueCapacity: 4)
            for _ in 0..<10 { #expect(sendWithLiblo(OSCMessage("/diorama/next"), port: control.port)) }
            #expect(control.waitUntilHandled(packets: 10))
            #expect(control.poll() == Array(repeating: .next, count: 4))
            let warnings = control.takeWarnings()
            #expect(warnings.count == 1)
            #expect(warnings.first?.hasPrefix("warning: osc: dropped OSC commands: more than 4 arrived between two frames") == true)
            #expect(sendWithLiblo(OSCMessage("/diorama/pause"), port: control.port))
            #expect(control.waitUntilHandled(packets: 11))
            #expect(control.poll() == [.pause], "room again once polled")
        }

        @Test("a frame gets one reload, the last seek and the last volume, however many arrived; the rest in order")
        func commandsOfAKindAreCoalesced() throws {
            let control = try OSCControl(port: 0)
            #expect(sendWithLiblo(OSCMessage("/diorama/next"), port: control.port))
            #expect(control.waitUntilHandled(packets: 1))
            // 320 of each in 8 bundles, one at a time (a burst of single packets would overflow the socket's buffer).
            for part in 0..<8 {
                let messages = (0..<40).flatMap { step in
                    let index = part * 40 + step
                    return [OSCMessage("/diorama/reload"), OSCMessage("/diorama/seek", [.int32(Int32(index))]),
                            OSCMessage("/diorama/volume", [.double(Double(index) / 1000)])].map(serialised)
                }
                #expect(sendRaw(bundle(messages), port: control.port))
                #expect(control.waitUntilHandled(packets: part + 2))
            }
            #expect(sendWithLiblo(OSCMessage("/diorama/next"), port: control.port))
            #expect(control.waitUntilHandled(packets: 10))
            // The reload where the first came (what followed it was sent to the reloaded show); a seek and a volume
            // where the last came, with its value.
            #expect(control.poll() == [.next, .reload, .seek(319), .volume(0.319), .next])
            #expect(control.takeWarnings() == [], "nothing was dropped")
        }

        @Test("by default it listens on 127.0.0.1 only: a packet to 127.0.0.2 does not arrive, and does when bound to 0.0.0.0")
        func localhostOnly() throws {
            let local = try OSCControl(port: 0)
            #expect(local.bindAddress == "127.0.0.1")
            #expect(local.url == "osc.udp://127.0.0.1:\(local.port)/")
            // Loopback delivers in order: had the first packet reached the socket, it would come out before the second.
            #expect(sendWithLiblo(OSCMessage("/diorama/scene", [.string("elsewhere")]), host: "127.0.0.2", port: local.port))
            #expect(sendWithLiblo(OSCMessage("/diorama/next"), host: "127.0.0.1", port: local.port))
            #expect(local.waitUntilHandled(packets: 1))
            #expect(local.poll() == [.next])

            let everywhere = try OSCControl(port: 0, bindAddress: "0.0.0.0")
            #expect(everywhere.bindAddress == "0.0.0.0")
            #expect(sendWithLiblo(OSCMessage("/diorama/scene", [.string("elsewhere")]), host: "127.0.0.2", port: everywhere.port))
            #expect(sendWithLiblo(OSCMessage("/diorama/next"), host: "127.0.0.1", port: everywhere.port))
            #expect(everywhere.waitUntilHandled(packets: 2))
            #expect(everywhere.poll() == [.scene(.id("elsewhere")), .next])
        }

        @Test("a port in use, a bad address and a port out of range are clear errors")
        func bindFailures() throws {
            let first = try OSCControl(port: 0)
            let inUse = #expect(throws: ShowControlError.self) { try OSCControl(port: first.port) }
            #expect(inUse?.message == "UDP port \(first.port) on 127.0.0.1 is already in use by another program")
            #expect(inUse?.hint.contains("choose another --osc PORT") == true)

            let notHere = #expect(throws: ShowControlError.self) { try OSCControl(port: 0, bindAddress: "192.0.2.7") }
            #expect(notHere?.message == "--osc-bind 192.0.2.7 is not an address of this machine: no interface of this machine has it")
            #expect(notHere?.hint.contains("127.0.0.1 is this machine only") == true)

            for address in ["300.1.2.3", "stage-pc", ""] {
                let bad = #expect(throws: ShowControlError.self) { try OSCControl(port: 0, bindAddress: address) }
                #expect(bad?.message.hasPrefix("--osc-bind \(address) is not an address of this machine: ") == true)
            }
            let range = #expect(throws: ShowControlError.self) { try OSCControl(port: 70000) }
            #expect(range?.description == "error: --osc 70000: a UDP port is from 1 to 65535\n  hint: e.g. --osc 9000 (0 picks a free port)")
        }

        @Test("localhost binds 127.0.0.1; stop() frees the port and may be called twice")
        func stopFreesThePort() throws {
            let control = try OSCControl(port: 0, bindAddress: "localhost")
            #expect(control.bindAddress == "127.0.0.1")
            let port = control.port
            control.stop()
            control.stop()
            #expect(control.poll() == [])
            let again = try OSCControl(port: port)
            #expect(again.port == port)
        }
    }

    @Suite("OSCFeedback")
    struct Feedback {
        let status = ShowStatus(sceneNumber: 2, sceneID: "swing", sceneTime: 3.5, sceneDuration: 14, paused: true, volume: 0.8, language: "ja")

        @Test("a liblo server receives /diorama/status and the per-field messages with their types")
        func statusMessages() throws {
            let receiver = try #require(LibloReceiver())
            let feedback = try OSCFeedback("127.0.0.1:\(receiver.port)")
            feedback.send(status)
            let received = receiver.receive(until: 9)
            #expect(received.map(\.address) == ["/diorama/status", "/diorama/status/scene", "/diorama/status/id", "/diorama/status/time",
                                                  "/diorama/status/duration", "/diorama/status/progress", "/diorama/status/paused",
                                                  "/diorama/status/volume", "/diorama/status/language"])
            #expect(received.first?.arguments == [.int32(2), .string("swing"), .float(3.5), .float(14), .int32(1), .float(0.8), .string("ja")])
            #expect(received.dropFirst().map(\.arguments) == [[.int32(2)], [.string("swing")], [.float(3.5)], [.float(14)], [.float(0.25)],
                                                              [.int32(1)], [.float(0.8)], [.string("ja")]])
            #expect(feedback.takeWarnings() == [])
        }

        @Test("update() sends on the first call, not again within a second of the passed-in clock, then again")
        func pacedOverUDP() throws {
            let receiver = try #require(LibloReceiver())
            let feedback = try OSCFeedback("localhost:\(receiver.port)")
            var playing = status
            playing.paused = false
            #expect(feedback.update(playing, now: 100))
            playing.sceneTime += 0.4
            #expect(!feedback.update(playing, now: 100.4))
            playing.sceneTime += 0.6
            #expect(feedback.update(playing, now: 101))
            #expect(receiver.receive(until: 18).count == 18)
            #expect(receiver.drain().count == 18, "nothing for the update in between")
            #expect(receiver.box.received[9].arguments[2] == .float(4.5))
        }
    }
}

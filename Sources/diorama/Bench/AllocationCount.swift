import Foundation

/// The counting malloc of libDioramaMallocCounter.so (Sources/CDioramaMallocCounter), when the process was started
/// with it in LD_PRELOAD: counts every heap allocation the calling thread makes, Swift's (which go through malloc)
/// and those of the C libraries (cairo, pango, glib, pixman), and can record their call stacks.
struct MallocCounter {
    private typealias Start = @convention(c) (Int32) -> Void
    private typealias Stop = @convention(c) () -> Void
    private typealias Read = @convention(c) () -> UInt
    private typealias SiteCount = @convention(c) () -> Int32
    private typealias Site = @convention(c) (Int32, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int32,
                                             UnsafeMutablePointer<UInt>?, UnsafeMutablePointer<UInt>?) -> Int32

    private typealias Describe = @convention(c) (UnsafeRawPointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                                 UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                                                 UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                                 UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Int32

    private let startCounting: Start, stopCounting: Stop, readAllocations: Read, readBytes: Read
    private let siteCount: SiteCount, site: Site, describe: Describe

    /// The library's file name; SwiftPM builds it beside the `diorama` executable.
    static let libraryName = "libDioramaMallocCounter.so"
    /// Set when this process restarted itself with the counter, so that it does not try again.
    private static let restartedVariable = "DIORAMA_MALLOC_COUNTER_RESTARTED"

    /// The counter of this process, nil when the library is not loaded.
    static func loaded() -> MallocCounter? {
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(nil, name).map { unsafeBitCast($0, to: type) }
        }
        guard let start = symbol("diorama_malloc_counter_start", as: Start.self),
              let stop = symbol("diorama_malloc_counter_stop", as: Stop.self),
              let allocations = symbol("diorama_malloc_counter_allocations", as: Read.self),
              let bytes = symbol("diorama_malloc_counter_bytes", as: Read.self),
              let siteCount = symbol("diorama_malloc_counter_site_count", as: SiteCount.self),
              let site = symbol("diorama_malloc_counter_site", as: Site.self),
              let describe = symbol("diorama_malloc_counter_describe", as: Describe.self)
        else { return nil }
        return MallocCounter(startCounting: start, stopCounting: stop, readAllocations: allocations, readBytes: bytes,
                             siteCount: siteCount, site: site, describe: describe)
    }

    /// The library beside this executable, if it was built.
    static func libraryBesideExecutable() -> String? {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let library = executable.deletingLastPathComponent().appendingPathComponent(libraryName).path
        return FileManager.default.fileExists(atPath: library) ? library : nil
    }

    /// Starts this program again with the counter preloaded (replacing this process), when the library is beside
    /// the executable and this process has not already tried; returns otherwise.
    static func restartWithCounter() {
        guard ProcessInfo.processInfo.environment[restartedVariable] == nil, let library = libraryBesideExecutable() else { return }
        let preload = [library] + (ProcessInfo.processInfo.environment["LD_PRELOAD"].map { [$0] } ?? [])
        setenv("LD_PRELOAD", preload.joined(separator: " "), 1)
        setenv(restartedVariable, "1", 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        // Only reached when exec failed: carry on without the counter.
    }

    /// Allocations and bytes the calling thread asked for while running `body`; with `recordingSites`, the call
    /// stacks stay readable through `sites()` until the next count.
    func count<T>(recordingSites: Bool = false, _ body: () throws -> T) rethrows -> (result: T, allocations: Int, bytes: Int) {
        startCounting(recordingSites ? 1 : 0)
        let result = try body()
        stopCounting()
        return (result, Int(readAllocations()), Int(readBytes()))
    }

    /// The call stacks recorded by the last count, innermost frame first, with how many allocations each made.
    func sites() -> [(frames: [UInt], allocations: Int)] {
        var result: [(frames: [UInt], allocations: Int)] = []
        var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 32)
        for index in 0..<siteCount() {
            var allocations: UInt = 0, bytes: UInt = 0
            let depth = Int(site(index, &frames, Int32(frames.count), &allocations, &bytes))
            result.append((frames[..<depth].map { UInt(bitPattern: $0) }, Int(allocations)))
        }
        return result
    }

    /// dladdr's answer for a code address: the object holding it, its load address, and the nearest exported symbol
    /// at or below it with the distance to it.
    func object(holding address: UInt) -> (path: String, base: UInt, symbol: (name: String, distance: UInt)?)? {
        var object: UnsafePointer<CChar>?, base: UnsafeMutableRawPointer?, symbol: UnsafePointer<CChar>?
        var symbolAddress: UnsafeMutableRawPointer?
        guard describe(UnsafeRawPointer(bitPattern: address), &object, &base, &symbol, &symbolAddress) != 0 else { return nil }
        return (object.map { String(cString: $0) } ?? "?", UInt(bitPattern: base),
                symbol.map { (String(cString: $0), address - UInt(bitPattern: symbolAddress)) })
    }
}

/// Names for code addresses: the dynamic symbol table through dladdr, else the object's own symbols through
/// addr2line (the executable exports few), with Swift names demangled and shortened.
struct CodeSymbols {
    private var names: [UInt: String] = [:]
    /// Addresses inside the executable (this program's own code).
    private(set) var own: Set<UInt> = []

    init(addresses: Set<UInt>, counter: MallocCounter) {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var byObject: [String: [(address: UInt, offset: UInt)]] = [:]
        for address in addresses {
            guard let found = counter.object(holding: address) else { names[address] = String(address, radix: 16); continue }
            let library = (found.path as NSString).lastPathComponent
            let isExecutable = URL(fileURLWithPath: found.path).resolvingSymlinksInPath().path == executable
            if isExecutable { own.insert(address) }
            if let symbol = found.symbol, !isExecutable {
                // Stripped libraries export only their API: an internal function shows as the exported one below
                // it plus the distance, as backtraces do (a large distance means somewhere past its end).
                names[address] = "\(library):\(Self.shorten(symbol.name))+0x\(String(symbol.distance, radix: 16))"
            } else {
                // A return address: the call is the byte before it.
                byObject[isExecutable ? executable : found.path, default: []].append((address, address - found.base - 1))
            }
        }
        for (object, entries) in byObject {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/addr2line")
            process.arguments = ["-f", "-e", object] + entries.map { "0x" + String($0.offset, radix: 16) }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            let lines: [Substring]
            do {
                try process.run()
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            } catch {
                lines = []
            }
            let library = (object as NSString).lastPathComponent
            for (index, entry) in entries.enumerated() {
                let function = 2 * index < lines.count ? String(lines[2 * index]) : "??"
                let place = 2 * index + 1 < lines.count ? (String(lines[2 * index + 1]) as NSString).lastPathComponent : ""
                // Outside the executable addr2line only has the exported symbols too: named with their library.
                let prefix = object == executable ? "" : "\(library):"
                names[entry.address] = function == "??" ? "\(library)+0x\(String(entry.offset, radix: 16))"
                    : prefix + Self.shorten(function) + (place.hasPrefix("?") || place.hasPrefix("<") ? "" : " (\(place))")
            }
        }
    }

    subscript(address: UInt) -> String { names[address] ?? String(address, radix: 16) }

    /// A Swift symbol demangled, without module names and argument lists: `FrameRenderer.draw` rather than its
    /// whole signature. Other names are kept.
    static func shorten(_ symbol: String) -> String {
        guard symbol.hasPrefix("$s"), let demangled = demangle(symbol) else { return symbol }
        // Specializations are named after what they specialize: "generic specialization <Int32> of Array.append".
        var text = Substring(demangled)
        while let range = text.range(of: "specialization <"), let of = text.range(of: "> of ", range: range.upperBound..<text.endIndex) {
            text = text[of.upperBound...]
        }
        var result = "", depth = 0
        for character in text.replacingOccurrences(of: "->", with: "→") {
            if character == "(" || character == "<" { depth += 1 } else if character == ")" || character == ">" { depth = max(0, depth - 1) }
            else if depth == 0 { result.append(character) }
        }
        for module in ["DioramaRender.", "DioramaTimeline.", "DioramaDocument.", "DioramaLottie.", "DioramaVectorArt.", "Swift.", "diorama."] {
            result = result.replacingOccurrences(of: module, with: "")
        }
        // Return types go: "Array._createNewBuffer", not "Array._createNewBuffer → Array".
        result = result.replacingOccurrences(of: " throws", with: "").replacingOccurrences(of: " ?→ ?[^ ]*", with: "", options: .regularExpression)
        while result.contains("  ") { result = result.replacingOccurrences(of: "  ", with: " ") }
        return result.trimmingCharacters(in: .whitespaces)
    }

    private static func demangle(_ symbol: String) -> String? {
        symbol.withCString { name in
            guard let demangled = swiftDemangle(name, UInt(strlen(name)), nil, nil, 0) else { return nil }
            defer { free(demangled) }
            return String(cString: demangled)
        }
    }
}

@_silgen_name("swift_demangle")
private func swiftDemangle(_ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: UInt, _ outputBuffer: UnsafeMutablePointer<CChar>?,
                           _ outputBufferSize: UnsafeMutablePointer<UInt>?, _ flags: UInt32) -> UnsafeMutablePointer<CChar>?

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A write that failed: the errno and what it means, e.g. "No space left on device".
public struct WriteError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Int32
    public init(code: Int32) { self.code = code }
    public var description: String { String(cString: strerror(code)) }
}

/// Writes to a descriptor with `write(2)`, retrying after a signal and after short writes. Unlike
/// `FileHandle.write(_:)`, which traps when the write fails, a full disk or a closed pipe is an error to report.
public enum DescriptorOutput {
    public static func write(_ bytes: some Collection<UInt8>, to fd: Int32) throws(WriteError) {
        let failure: Int32? = Array(bytes).withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let count = sysWrite(fd, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += count
            }
            return nil
        }
        if let failure { throw WriteError(code: failure) }
    }
}

/// Standard output and standard error written without ever trapping.
public enum StandardStreams {
    /// Writes `text` to standard error. Returns false when it could not be written (a full disk, a closed pipe):
    /// there is nowhere left to say so, and the exit status tells the rest.
    @discardableResult
    public static func writeError(_ text: String) -> Bool {
        (try? DescriptorOutput.write(Array(text.utf8), to: STDERR_FILENO)) != nil
    }

    /// Writes `text` to standard output after what `print` has buffered, and throws when any of it could not be
    /// written, so a command whose output is its result can exit non-zero instead of reporting success.
    public static func writeOutput(_ text: String) throws(WriteError) {
        // fflush(nil) flushes every stdio stream; `stdout` itself is a global Swift 6 will not read.
        if fflush(nil) != 0 { throw WriteError(code: errno) }
        try DescriptorOutput.write(Array(text.utf8), to: STDOUT_FILENO)
    }
}

private func sysWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}

import Synchronization

/// A bounded lock-free queue for exactly one producer thread and one consumer thread.
///
/// The producer (the control thread) calls `push`, the consumer (the audio thread) calls `pop`;
/// neither ever blocks or allocates. Elements are bitwise-copyable, so no reference counting
/// happens on the audio thread either.
public final class CommandRing<Element: BitwiseCopyable>: @unchecked Sendable {
    // @unchecked Sendable: slot `i` is written only by the producer before it publishes
    // `tail > i` with release ordering, and read only by the consumer after it observes that
    // with acquire ordering and before it publishes `head > i`; so no slot is ever accessed by
    // both threads at once. Callers must keep to one producer and one consumer at a time.
    private let slots: UnsafeMutablePointer<Element>
    private let mask: Int
    /// Next slot to read; written by the consumer only.
    private let head = Atomic<Int>(0)
    /// Next slot to write; written by the producer only.
    private let tail = Atomic<Int>(0)

    /// The number of elements the ring holds at most (a power of two).
    public let capacity: Int

    /// Makes a ring holding at least `minimumCapacity` elements (rounded up to a power of two).
    public init(minimumCapacity: Int) {
        var capacity = 1
        while capacity < max(minimumCapacity, 2) { capacity <<= 1 }
        self.capacity = capacity
        self.mask = capacity - 1
        self.slots = .allocate(capacity: capacity)
    }

    deinit { slots.deallocate() }

    /// Producer side: appends `element`, or returns false when the ring is full.
    @discardableResult
    public func push(_ element: Element) -> Bool {
        let tail = self.tail.load(ordering: .relaxed)
        let head = self.head.load(ordering: .acquiring)
        if tail - head == capacity { return false }
        (slots + (tail & mask)).initialize(to: element)
        self.tail.store(tail + 1, ordering: .releasing)
        return true
    }

    /// Consumer side: removes and returns the oldest element, or nil when the ring is empty.
    public func pop() -> Element? {
        let head = self.head.load(ordering: .relaxed)
        let tail = self.tail.load(ordering: .acquiring)
        if head == tail { return nil }
        let element = slots[head & mask]
        self.head.store(head + 1, ordering: .releasing)
        return element
    }

    /// The number of elements waiting (a snapshot; exact only on the consumer thread when idle).
    public var count: Int {
        tail.load(ordering: .acquiring) - head.load(ordering: .acquiring)
    }
}

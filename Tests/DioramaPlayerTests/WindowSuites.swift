import Testing

/// Every test that touches SDL lives under this suite: SDL's video and event queue are global, so
/// these run one at a time (other suites still run in parallel with them).
@Suite(.serialized) struct WindowSuites {}

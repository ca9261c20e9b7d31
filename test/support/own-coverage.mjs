// Loaded into every test process by scripts/run-tests.ts (`--import`): coverage measures the code a test file
// runs in its own process. The servers and CLIs it starts (the build in dist/) would otherwise inherit
// NODE_V8_COVERAGE from it and write their own, which Node's report cannot map back (its report then fails).
// Node read the variable when this process started, so its own coverage is still written. Plain JavaScript:
// the worker threads the tests start load it too, before any TypeScript loader.
delete process.env.NODE_V8_COVERAGE;

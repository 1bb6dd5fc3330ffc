import { defineConfig } from "vitest/config";

// isolate: false shares one happy-dom environment per worker (every test cleans up after
// itself), which takes the suite from about 9 s to about 6 s on a 2-core machine. A test may take
// 30 s: the suite runs beside pytest's other worker, Chromium and Jupyter on two cores (5 s, the
// default, once ran out under that load). A larger young generation (--max-semi-space-size, in MB) for the workers:
// happy-dom allocates a great deal, and a third of the run went to collecting garbage; measured 40.6 s against 43-45 s.
export default defineConfig({
  test: { environment: "happy-dom", include: ["test/**/*.test.js"], isolate: false, testTimeout: 30_000,
          execArgv: ["--max-semi-space-size=64"] },
});

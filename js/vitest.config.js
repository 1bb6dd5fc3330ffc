import { defineConfig } from "vitest/config";

// isolate: false shares one happy-dom environment per worker (every test cleans up after
// itself), which takes the suite from about 9 s to about 6 s on a 2-core machine. A test may take
// 30 s: the suite runs beside pytest's other worker, Chromium and Jupyter on two cores (5 s, the
// default, once ran out under that load).
export default defineConfig({
  test: { environment: "happy-dom", include: ["test/**/*.test.js"], isolate: false, testTimeout: 30_000 },
});

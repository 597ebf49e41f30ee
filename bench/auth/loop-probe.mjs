// Loaded into the server process by bench/auth (NODE_OPTIONS=--import): measures the server's
// own event-loop delay. On SIGUSR2 it writes {p50, p99, max} in ms since the last signal to
// BENCH_LOOP_FILE and starts over.
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.BENCH_LOOP_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  process.on("SIGUSR2", () => {
    const ms = (ns) => ns / 1e6;
    writeFileSync(
      file,
      JSON.stringify({ p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) }),
    );
    h.reset();
  });
}

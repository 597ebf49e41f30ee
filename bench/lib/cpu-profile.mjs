// Loaded into a server process by a bench (NODE_OPTIONS=--import; --cpu-prof itself is not
// allowed there): records a CPU profile of the main thread from the first SIGUSR2 (so start-up
// stays out of it) to exit, and writes it to BENCH_CPU_PROFILE (open it in Chrome DevTools, or
// summarise it with bench/lib/profile-summary.mjs).
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";

const file = process.env.BENCH_CPU_PROFILE;
if (file) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 500 });
  let started = false;
  process.on("SIGUSR2", () => {
    if (!started) session.post("Profiler.start");
    started = true;
  });
  // In-process inspector calls answer synchronously, so this works inside an exit handler.
  process.on("exit", () => {
    session.post("Profiler.stop", (error, result) => {
      if (!error) writeFileSync(file, JSON.stringify(result.profile));
    });
  });
}

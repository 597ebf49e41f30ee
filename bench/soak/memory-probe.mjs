// Loaded into the server process by bench/soak (NODE_OPTIONS=--import): on SIGUSR2 it runs a
// full garbage collection and writes process.memoryUsage() in bytes to BENCH_MEMORY_FILE, so the
// bench can tell live heap growth (a leak) from memory the collector simply had not reclaimed.
import { writeFileSync } from "node:fs";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";

const file = process.env.BENCH_MEMORY_FILE;
if (file) {
  v8.setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc");
  process.on("SIGUSR2", () => {
    gc();
    writeFileSync(file, JSON.stringify({ at: Date.now(), ...process.memoryUsage() }));
  });
}

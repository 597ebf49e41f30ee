// Summarises a .cpuprofile (from bench/lib/cpu-profile.mjs or node --cpu-prof): self time by
// package or source folder, then the functions with the most self time.
// Run: node bench/lib/profile-summary.mjs FILE.cpuprofile [top=25]
import { readFileSync } from "node:fs";

const profile = JSON.parse(readFileSync(process.argv[2], "utf8"));
const top = Number(process.argv[3] ?? 25);
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
profile.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);

function groupOf(url) {
  if (!url) return "(native, idle, gc)";
  const pkg = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  const own = url.match(/\/(apps|packages|bench|scripts)\/(.*)/);
  if (own) return `${own[1]}/${own[2].split("/").slice(0, 3).join("/")}`;
  return url.split("/").slice(0, 2).join("/");
}

const groups = new Map();
const functions = new Map();
for (const [id, time] of self) {
  const frame = nodes.get(id).callFrame;
  const group = groupOf(frame.url);
  groups.set(group, (groups.get(group) ?? 0) + time);
  const where = frame.url.split("/").slice(-2).join("/");
  const name = `${frame.functionName || "(anonymous)"} ${where}:${frame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + time);
}

const line = (time, label) =>
  console.log(
    `${(time / 1000).toFixed(0).padStart(7)} ms ${`${((100 * time) / total).toFixed(1)}%`.padStart(6)}  ${label}`,
  );
console.log(`${(total / 1000).toFixed(0)} ms sampled`);
for (const [label, time] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  line(time, label);
}
console.log("--- functions by self time");
for (const [label, time] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  line(time, label);
}

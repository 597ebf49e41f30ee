// One load run with autocannon, in a process of its own so that the generator's work does not
// share a thread with the bench's bookkeeping. Pipelining is off (one request in flight per
// connection, as browsers send them). Input: a JSON object on stdin (url, connections,
// seconds, requests: [{ method, path, headers, body }], cycled through by every connection).
// Output: one JSON line with the figures and this process's own CPU time.
import autocannon from "autocannon";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const options = JSON.parse(input);
const started = process.cpuUsage();
const result = await autocannon({
  url: options.url,
  connections: options.connections,
  duration: options.seconds,
  pipelining: 1,
  requests: options.requests,
});
const cpu = process.cpuUsage(started);
process.stdout.write(
  `${JSON.stringify({
    requests: result.requests.total,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    generatorCpuMs: (cpu.user + cpu.system) / 1000,
  })}\n`,
);

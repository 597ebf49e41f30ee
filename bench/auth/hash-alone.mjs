// The baseline of the sign-in storm: how many password checks a second the hash alone allows on
// this machine's cores. Runs as its own process: one argon2id verify loop per core (the options
// of apps/server/src/auth/passwords.ts, UV_THREADPOOL_SIZE at least the cores) for argv[2]
// seconds, and prints {rps}.
import os from "node:os";
import { hash, verify } from "@node-rs/argon2";

const seconds = Number(process.argv[2] ?? 8);
const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };
const password = "bench passphrase for sign-in";
const stored = await hash(password, options);
const end = performance.now() + seconds * 1000;
let done = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: os.availableParallelism() }, async () => {
    while (performance.now() < end) {
      if (await verify(stored, password)) done++;
    }
  }),
);
process.stdout.write(`${JSON.stringify({ rps: done / ((performance.now() - started) / 1000) })}\n`);

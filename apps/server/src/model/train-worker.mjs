// One training of a candidate model (issue 30) on a thread of model/training.ts's pool
// (Piscina, at a lower CPU priority than the event loop). Plain JavaScript, so that the same
// file runs under the bundled server and under the tests; the training itself is the model
// package's TypeScript, loaded through tsx's loader (a dependency of the server).
import { register } from "tsx/esm/api";

register();
const task = await import("./train-task.ts");

/** @param {import("./train-task.ts").TrainTask} input */
export default function run(input) {
  return task.runTraining(input);
}

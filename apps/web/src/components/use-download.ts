import { useState } from "react";
import { formErrors } from "../api/form-errors.ts";

/**
 * A file a button downloads: `start` runs `download`, `running` says it runs, and `error` is the
 * server's reason when it failed ("" otherwise, and again at each start).
 */
export function useDownload(download: () => Promise<unknown>) {
  const [running, setRunning] = useState(false);
  const [error, setError] = useState("");

  async function start() {
    setRunning(true);
    setError("");
    try {
      await download();
    } catch (err) {
      setError(formErrors(err, []).message ?? "");
    } finally {
      setRunning(false);
    }
  }

  return { running, error, start };
}

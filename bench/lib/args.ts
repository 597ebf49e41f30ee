/** A numeric option of the bench's command line, `--name N`; `fallback` when absent or not a number. */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) || fallback : fallback;
}

/** A flag of the bench's command line, `--name`: whether it is there. */
export const flag = (name: string): boolean => process.argv.includes(`--${name}`);

/** The bench's numeric options, each `--name N` on the command line or its default here. */
export function numberArgs<T extends Record<string, number>>(defaults: T): T {
  const entries = Object.entries(defaults).map(([name, fallback]) => [
    name,
    numberArg(name, fallback),
  ]);
  return Object.fromEntries(entries) as T;
}

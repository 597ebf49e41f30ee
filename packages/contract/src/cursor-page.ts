import { z } from "zod";

/** One page of a list read by cursor: its items, and the cursor of the next page (null: the last). */
export function cursorPage<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

import { z } from "zod";

/** A person or a class as an answer points at it: its id, and the name the screen shows. */
export const namedSchema = z.object({ id: z.string(), name: z.string() });

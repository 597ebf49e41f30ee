// Password lengths (NIST SP 800-63B: 8-128 characters, no composition rules), in a module without
// zod so that the sign-in screen's fields can read them without loading the schema library.
export const passwordLimits = { min: 8, max: 128 } as const;

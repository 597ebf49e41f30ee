import { useState } from "react";
import { formErrors } from "../api/form-errors.ts";

/**
 * A form's text fields: their values, the server's messages beside them and what no field
 * shows (`message`, for the form's alert). `field(key)` gives a Field or Select its name, value,
 * change and error; `refused(err)` splits a failed request's error between them.
 */
export function useFormFields<K extends string>(initial: Record<K, string>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});
  const [message, setMessage] = useState<string | null>(null);
  const names = Object.keys(initial) as K[];
  return {
    values,
    setValues,
    setErrors,
    message,
    setMessage,
    field: (key: K) => ({
      name: key,
      value: values[key],
      error: errors[key],
      onChange: (event: { target: { value: string } }) =>
        setValues((v) => ({ ...v, [key]: event.target.value })),
    }),
    /** Before a new try: no message left from the last one. */
    clear: () => {
      setErrors({});
      setMessage(null);
    },
    refused: (err: unknown) => {
      const split = formErrors(err, names);
      setErrors(split.fields);
      setMessage(split.message);
    },
  };
}

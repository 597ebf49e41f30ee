import type { SelectHTMLAttributes } from "react";
import { framed } from "./field.tsx";

export interface SelectOption {
  value: string;
  label: string;
}

/** A labelled select with its hint and its error next to it. */
export const Select = framed<
  Omit<SelectHTMLAttributes<HTMLSelectElement>, "id"> & {
    options: readonly SelectOption[];
    /** A first, empty choice (e.g. "Select…"), for selects that must be chosen on purpose. */
    placeholder?: string | undefined;
  }
>((control, { options, placeholder, ...select }) => (
  <select className="input select" {...control} {...select}>
    {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
    {options.map((o) => (
      <option key={o.value} value={o.value}>
        {o.label}
      </option>
    ))}
  </select>
));

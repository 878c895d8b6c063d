import type { InputHTMLAttributes } from "react";

type PlainFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id"> & {
  name: string;
  label: string;
  /** The server's message for this field, from the last post. */
  error?: string;
};

/**
 * A labelled native input with its message below, drawn like Mantine's TextInput by app/styles/app.css, for
 * the page that loads no React (the sign-in page, decision 138). Without JavaScript the server's message
 * shows; with it, the page's script checks the field again on blur and writes its message in the same place
 * (`checkOnBlur` in app/ui/page-scripts/plain-page.ts).
 */
export function PlainField({ name, label, error, required, ...input }: PlainFieldProps) {
  const errorId = `${name}-error`;
  return (
    <div className="gk-field">
      <label htmlFor={name}>
        {label}
        {required ? (
          <span className="gk-field-required" aria-hidden="true">
            {" *"}
          </span>
        ) : null}
      </label>
      <input
        {...input}
        id={name}
        name={name}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error ? (
        <p id={errorId} className="gk-field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

import type { InputHTMLAttributes, ReactNode } from "react";

type PlainFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id"> & {
  name: string;
  label: string;
  /** The server's message for this field, from the last post. */
  error?: string;
};

/** The control's attributes that tie it to its label and message. */
export const plainControlAttributes = (name: string, error: string | undefined) => ({
  id: name,
  name,
  "aria-invalid": error ? true : undefined,
  "aria-describedby": error ? `${name}-error` : undefined,
});

/** A labelled control (input, select) with the server's message below it. */
export function PlainFieldFrame({
  name,
  label,
  required,
  error,
  children,
}: {
  name: string;
  label: string;
  required?: boolean;
  error?: string;
  children: ReactNode;
}) {
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
      {children}
      {error ? (
        <p id={`${name}-error`} className="gk-field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A labelled native input with its message below, drawn like Mantine's TextInput by app/styles/app.css, for
 * the page that loads no React (the sign-in page, decision 138). Without JavaScript the server's message
 * shows; with it, the page's script checks the field again on blur and writes its message in the same place
 * (`checkOnBlur` in app/ui/page-scripts/plain-page.ts).
 */
export function PlainField({ name, label, error, required, ...input }: PlainFieldProps) {
  return (
    <PlainFieldFrame name={name} label={label} required={required} error={error}>
      <input {...input} {...plainControlAttributes(name, error)} required={required} />
    </PlainFieldFrame>
  );
}

import { useEffect, useState, type InputHTMLAttributes } from "react";

type PlainFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id"> & {
  name: string;
  label: string;
  /** The server's message for this field, from the last post. */
  error?: string;
  /** The browser's check on blur: the message for a value, or undefined when it is fine. */
  check: (value: string) => string | undefined;
};

/**
 * A labelled native input with its message below, drawn like Mantine's TextInput by app/styles/app.css,
 * for pages that load no Mantine JavaScript (the sign-in page). Without JavaScript the server's message
 * shows; with it the field is checked again on blur.
 */
export function PlainField({ name, label, error, check, required, onBlur, ...input }: PlainFieldProps) {
  const [checked, setChecked] = useState<{ message?: string } | null>(null);
  // A new answer from the server replaces what the browser found.
  useEffect(() => setChecked(null), [error]);
  const message = checked ? checked.message : error;
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
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? errorId : undefined}
        onBlur={(event) => {
          setChecked({ message: check(event.currentTarget.value) });
          onBlur?.(event);
        }}
      />
      {message ? (
        <p id={errorId} className="gk-field-error">
          {message}
        </p>
      ) : null}
    </div>
  );
}

import { Form } from "@remix-run/react";
import type { ReactNode, SelectHTMLAttributes } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { PASSWORD_REQUIREMENTS } from "~/domain/password-requirements";
import type { SelectOption } from "~/domain/billing-views";
import { Link } from "./link";
import { PlainField, PlainFieldFrame, plainControlAttributes } from "./plain-field";

/**
 * The pages of a person without a session (sign-up, a verification or reset link, an invitation): plain elements
 * drawn by the root's stylesheet, like the sign-in page, and plain form posts (they load no React).
 */
export function AuthPage({
  title,
  lead,
  wide = false,
  children,
}: {
  title: string;
  lead?: ReactNode;
  /** A card wide enough for a table (a quote's lines). */
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <main className="gk-auth-page">
      <div className="gk-auth-card gk-stack" data-wide={wide || undefined}>
        <div>
          <h1>{title}</h1>
          {lead ? <p className="gk-dimmed">{lead}</p> : null}
        </div>
        {children}
      </div>
    </main>
  );
}

/** What went wrong with the whole form, above it. */
export function FormAlert({ title, message }: { title: string; message: string }) {
  return (
    <div className="gk-alert" role="alert">
      <p className="gk-alert-title">{title}</p>
      <p>{message}</p>
    </div>
  );
}

/** What the form did, in place of it. */
export function FormDone({ children }: { children: ReactNode }) {
  return (
    <div className="gk-stack" data-gap="sm" role="status">
      {children}
    </div>
  );
}

/** What an email-link page's post answered: the address typed, and what was wrong or that the link is on its way. */
type EmailLinkAnswer = { email: string; fieldError?: string; formError?: string; sent?: true };

/**
 * The form of a page that mails a link to one address (a password reset, a sign-in link): above it, what `sent`
 * says of the address once posted, or why nothing was sent; the typed address stays in the field.
 */
export function EmailLinkForm({
  answer,
  email,
  submit,
  sent,
}: {
  answer: EmailLinkAnswer | undefined;
  email: string;
  submit: string;
  sent: (email: string) => ReactNode;
}) {
  return (
    <>
      {answer?.sent ? (
        <FormDone>
          <p>{sent(answer.email)}</p>
        </FormDone>
      ) : null}
      {answer?.formError ? <FormAlert title="Could not send a link" message={answer.formError} /> : null}
      <Form method="post" noValidate className="gk-stack" data-gap="sm">
        <AuthenticityTokenInput name="csrf" />
        <PlainField
          name="email"
          label="Email"
          type="email"
          autoComplete="username"
          required
          defaultValue={answer?.email ?? email}
          error={answer?.fieldError}
        />
        <button type="submit" className="gk-button gk-button-block" data-variant="filled">
          {submit}
        </button>
      </Form>
      <Link className="gk-link" to="/login">
        Back to sign in
      </Link>
    </>
  );
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "id"> & {
  name: string;
  label: string;
  options: SelectOption[];
  placeholder: string;
  error?: string;
};

/** A labelled native select with its message below, drawn like PlainField. */
export function PlainSelect({ name, label, options, placeholder, error, required, ...select }: SelectProps) {
  return (
    <PlainFieldFrame name={name} label={label} required={required} error={error}>
      <select {...select} {...plainControlAttributes(name, error)} required={required}>
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </PlainFieldFrame>
  );
}

/**
 * A new password and its confirmation, with the profile's requirements as a checklist: before a post a plain
 * list, after one each requirement the server found unmet marked (passwords are never written back).
 */
export function NewPasswordFields({
  errors,
  unmet,
}: {
  errors: Partial<Record<"new_password" | "confirm_password", string>>;
  unmet: string[] | null;
}) {
  return (
    <>
      <PlainField
        name="new_password"
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        error={errors.new_password}
      />
      <ul className="gk-password-checklist" id="password-requirements" aria-label="Password requirements">
        {PASSWORD_REQUIREMENTS.map((requirement) => {
          const met = unmet === null ? null : !unmet.includes(requirement.id);
          return (
            <li key={requirement.id} data-met={met === null ? undefined : String(met)}>
              <span aria-hidden="true">{met === null ? "•" : met ? "✓" : "✗"}</span> {requirement.label}
              {met === null ? null : <span className="gk-visually-hidden">{met ? " (met)" : " (not met)"}</span>}
            </li>
          );
        })}
      </ul>
      <PlainField
        name="confirm_password"
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        required
        error={errors.confirm_password}
      />
    </>
  );
}

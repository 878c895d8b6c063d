import { Link } from "~/ui/link";

/** ✓ (U+2713) as a character reference, so that a wizard step stays a one-byte string on the server (decision 141). */
const CHECK_MARK = { __html: "&#10003;" };

export interface StepLink {
  key: string;
  title: string;
  to: string;
}

/**
 * The wizard's steps in order. Done steps are links (earlier steps can be revisited, with or without
 * JavaScript); settled ones (done by design, such as the choices of a quote's order) are marked done but are
 * text, as there is nothing to go back to; the current one is marked for screen readers; later ones are plain text.
 */
export function WizardStepper({
  steps,
  current,
  completed,
  settled = [],
  label,
}: {
  steps: StepLink[];
  current: string;
  completed: string[];
  settled?: string[];
  label: string;
}) {
  return (
    <nav aria-label={label} className="gk-stepper">
      <ol>
        {steps.map((step, index) => {
          const state =
            step.key === current
              ? "current"
              : completed.includes(step.key)
                ? "done"
                : settled.includes(step.key)
                  ? "settled"
                  : "upcoming";
          return (
            <li key={step.key} data-state={state}>
              {state === "done" || state === "settled" ? (
                <span
                  key="done"
                  className="gk-stepper-number"
                  aria-hidden="true"
                  dangerouslySetInnerHTML={CHECK_MARK}
                />
              ) : (
                <span key="number" className="gk-stepper-number" aria-hidden="true">
                  {index + 1}
                </span>
              )}
              {state === "current" ? (
                <span aria-current="step">{step.title}</span>
              ) : state === "done" ? (
                <Link to={step.to}>{step.title}</Link>
              ) : (
                <span>{step.title}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

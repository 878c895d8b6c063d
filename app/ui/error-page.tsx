import { Form, isRouteErrorResponse } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Link } from "~/ui/link";

const TITLES: Record<number, string> = {
  403: "You don't have access to this page",
  404: "Page not found",
  429: "Too many requests",
};

/**
 * The browser tab's title for a page: "<title> · GateKeeper Portal". Here, by the error page, so that the root
 * names an error page's tab without loading page.tsx on the pages outside the shell.
 */
export function documentTitle(title: string) {
  return [{ title: `${title} · GateKeeper Portal` }];
}

const statusOf = (error: unknown) => (isRouteErrorResponse(error) ? error.status : 500);

/** What an error page is called: its heading, and its tab's title. */
export function errorTitle(error: unknown): string {
  return TITLES[statusOf(error)] ?? "Something went wrong";
}

/**
 * The page shown for a thrown response (403, 404, ...) or an unexpected error, inside or outside the shell.
 * Plain elements (app/styles/app.css): it must look right whatever stylesheets the failed page linked.
 */
export function ErrorPage({ error }: { error: unknown }) {
  const status = statusOf(error);
  const detail =
    isRouteErrorResponse(error) && typeof error.data?.message === "string"
      ? error.data.message
      : status === 404
        ? "The page you asked for does not exist or has moved."
        : "An unexpected error happened. Please try again, or contact support if it keeps happening.";
  // A page that waits for a verified email address offers the link again, right there.
  const verifyEmail = isRouteErrorResponse(error) && error.data?.verifyEmail === true;
  return (
    <div className="gk-error-page">
      <p className="gk-dimmed gk-error-status">Error {status}</p>
      <h1>{errorTitle(error)}</h1>
      <p>{detail}</p>
      {verifyEmail ? (
        <Form method="post" action="/verify-email">
          <AuthenticityTokenInput name="csrf" />
          <button type="submit" className="gk-button" data-variant="filled">
            Send the verification link again
          </button>
        </Form>
      ) : null}
      <p>
        <Link to="/home" className="gk-link">
          Go to the portal home
        </Link>{" "}
        or{" "}
        <Link to="/support" className="gk-link">
          contact support
        </Link>
        .
      </p>
    </div>
  );
}

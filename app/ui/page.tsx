import type { MetaFunction } from "@remix-run/node";
import { useRouteError, type UIMatch } from "@remix-run/react";
import { Link } from "~/ui/link";
import type { ReactNode } from "react";
import { documentTitle, ErrorPage, errorTitle } from "./error-page";
import type { PageSection } from "~/content/types";

/**
 * A route names its page with `handle.title` (a string, or a function of its loader data);
 * the shell shows the deepest one in the header and the route's meta uses it for the tab.
 */
export interface PageHandle {
  title: string | ((data: unknown) => string);
}

const titleOf = (title: PageHandle["title"], data: unknown) => (typeof title === "function" ? title(data) : title);

export function pageTitle(match: Pick<UIMatch, "handle" | "data">): string | null {
  const handle = match.handle as PageHandle | undefined;
  return handle?.title ? titleOf(handle.title, match.data) : null;
}

/**
 * A page route's meta: its tab's title. Remix runs it too when an error boundary at or below the route shows,
 * with that error, and then the tab names the error page instead ("Page not found · GateKeeper Portal").
 */
export function pageMeta(title: PageHandle["title"]): MetaFunction {
  return ({ data, error }) => documentTitle(error ? errorTitle(error) : titleOf(title, data));
}

/** Errors of a page inside the shell: the shell stays, the page shows what went wrong. */
export function PageErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}

/**
 * A modest content page: a lead paragraph and cards, each with the links a customer needs next. Plain
 * elements styled by app/styles/content.css: static pages render often and need no component machinery.
 */
export function InfoPage({
  lead,
  sections,
  children,
}: {
  lead: ReactNode;
  sections: PageSection[];
  children?: ReactNode;
}) {
  return (
    <div className="gk-info-page">
      <p className="gk-lead">{lead}</p>
      {children}
      <div className="gk-card-grid">
        {sections.map((section) => (
          <section key={section.title} className="gk-card">
            <h2>{section.title}</h2>
            <p>{section.body}</p>
            {section.links?.length ? (
              <ul>
                {section.links.map((link) => (
                  <li key={link.to}>
                    {link.external ? (
                      <a href={link.to} className="gk-link" rel="noopener noreferrer">
                        {link.label}
                      </a>
                    ) : (
                      <Link to={link.to} className="gk-link">
                        {link.label}
                      </Link>
                    )}
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
        ))}
      </div>
    </div>
  );
}

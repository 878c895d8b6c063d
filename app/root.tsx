import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { commitCsrfToken } from "~/server/accounts/csrf.server";
import { takeToast } from "~/server/accounts/session.server";
import { cardsAtStripe } from "~/server/cards/index.server";
import { stylesheetsToFetch } from "~/server/platform/delivery/stylesheet-delivery.server";
import rootStyles from "~/styles/root.css";
import { CardDocumentProvider, type CardProviderData } from "~/ui/card-document";
import { documentTitle, ErrorPage, errorTitle } from "~/ui/error-page";
import { LinkNavigation } from "~/ui/link";
import { EarlyModulePreloads } from "~/ui/early-module-preloads";
import { useNonce } from "~/ui/nonce";
import { PageScript, usePlainPage } from "~/ui/page-script";
import { StylesheetPrefetch } from "~/ui/stylesheet-prefetch";
import { ToastMessage } from "~/ui/toast";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: rootStyles },
];

/**
 * Pages name their own tabs. An error page that no page's meta reaches (a URL no route knows, an error of a page
 * outside the shell, or of the shell itself) is named here: Remix runs the root's meta for it, with the error.
 */
export const meta: MetaFunction = ({ error }) => (error ? documentTitle(errorTitle(error)) : []);

export async function loader({ request }: LoaderFunctionArgs) {
  const [csrfToken, csrfCookie] = await commitCsrfToken(request);
  const { toast, setCookie } = await takeToast(request);
  const headers = new Headers();
  if (csrfCookie) headers.append("Set-Cookie", csrfCookie);
  if (setCookie) headers.append("Set-Cookie", setCookie);
  // A page for a browser without the stylesheets inlines them and fetches every file for the next pages
  // (decision 130); entry.server.tsx inlines them when this list is not empty.
  const stylesheets = await stylesheetsToFetch(request);
  if (stylesheets.setCookie) headers.append("Set-Cookie", stylesheets.setCookie);
  // Whether links into card pages must load a document (app/ui/card-document.tsx).
  const cards: CardProviderData = { cardsAtStripe: cardsAtStripe() };
  const data = { csrfToken, toast, prefetchStylesheets: stylesheets.hrefs, ...cards };
  // Most pages set no cookie here, and then the data goes as it is (decision 137).
  return headers.has("Set-Cookie") ? json(data, { headers }) : data;
}

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // Also under the error page, whose route's loader may have failed: then there is nothing to fetch.
  const prefetchStylesheets = useRouteLoaderData<typeof loader>("root")?.prefetchStylesheets ?? [];
  // A page that loads no React runs its own script instead of Remix's (decision 138).
  const plainPage = usePlainPage();
  return (
    // The colour scheme on <html>, as Mantine's provider would set it: Mantine's colour variables (button fills
    // among them) hang off it. The portal is light only, so Mantine's ColorSchemeScript (an inline script that
    // read a stored scheme, and held the parser until the stylesheets came) is left out.
    <html lang="en" data-mantine-color-scheme="light">
      <head>
        <meta charSet="utf-8" />
        {prefetchStylesheets.length && !plainPage ? <EarlyModulePreloads nonce={nonce} /> : null}
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <CardDocumentProvider>{children}</CardDocumentProvider>
        <StylesheetPrefetch hrefs={prefetchStylesheets} />
        {plainPage ? (
          <PageScript src={plainPage.pageScript} nonce={nonce} stylesheets={prefetchStylesheets} />
        ) : (
          <>
            <LinkNavigation />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  const { csrfToken, toast } = useLoaderData<typeof loader>();
  return (
    <Document>
      <AuthenticityTokenProvider token={csrfToken}>
        {toast ? <ToastMessage toast={toast} /> : null}
        <Outlet />
      </AuthenticityTokenProvider>
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <Document>
      <ErrorPage error={error} />
    </Document>
  );
}

import { ColorSchemeScript } from "@mantine-parts/core/MantineProvider/ColorSchemeScript/ColorSchemeScript.mjs";
import { mantineHtmlProps } from "@mantine-parts/core/MantineProvider/mantine-html-props.mjs";
import { MantineProvider } from "@mantine-parts/core/MantineProvider/MantineProvider.mjs";
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { commitCsrfToken } from "~/server/csrf.server";
import { takeToast } from "~/server/session.server";
import rootStyles from "~/styles/root.css";
import { ErrorPage } from "~/ui/error-page";
import { theme } from "~/ui/theme";
import { useNonce } from "~/ui/nonce";
import { ToastMessage } from "~/ui/toast";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: rootStyles },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const [csrfToken, csrfCookie] = await commitCsrfToken(request);
  const { toast, setCookie } = await takeToast(request);
  const headers = new Headers();
  if (csrfCookie) headers.append("Set-Cookie", csrfCookie);
  if (setCookie) headers.append("Set-Cookie", setCookie);
  return json({ csrfToken, toast }, { headers });
}

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    // mantineHtmlProps puts the colour scheme on <html> in the server's HTML: Mantine's colour variables
    // (button fills among them) hang off it, and without JavaScript its script never sets it.
    <html lang="en" {...mantineHtmlProps}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <ColorSchemeScript defaultColorScheme="light" nonce={nonce} />
      </head>
      <body>
        {/* The theme's variables and Mantine's global classes come from a static stylesheet
            (app/styles/theme.css), not an inline <style> computed on every request. */}
        <MantineProvider theme={theme} defaultColorScheme="light" withCssVariables={false} withGlobalClasses={false}>
          {children}
        </MantineProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
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

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { portalNow } from "~/server/billing/index.server";
import { bankPageAction, bankPageLoader } from "~/server/cards/local/bank-page.server";
import { formatCents } from "~/domain/format";
import { AuthPage } from "~/ui/auth-page";
import type { PlainPageData, PlainPageHandle } from "~/ui/page-script";

export const meta: MetaFunction = () => [{ title: "3-D Secure authentication · Test bank" }];

export const handle: PlainPageHandle = { plainPage: true };

export async function loader(args: LoaderFunctionArgs) {
  return { pageScript: null, ...(await bankPageLoader(args, await portalNow())) } satisfies PlainPageData;
}

export const action = async (args: ActionFunctionArgs) => bankPageAction(args, await portalNow());

/** The embedded card gateway's test bank page, a plain form like Stripe's 3-D Secure test page. */
export default function BankPage() {
  const { waiting, expired, returnUrl, payment } = useLoaderData<typeof loader>();
  const asks = payment
    ? `Your bank asks you to confirm this payment of ${formatCents(payment.amount)}.`
    : "Your bank asks you to confirm saving this card.";
  return (
    <AuthPage title="3-D Secure authentication" lead={`${asks} This is a test page.`}>
      {waiting ? (
        <form method="post" className="gk-stack" data-gap="sm">
          <button
            type="submit"
            name="outcome"
            value="complete"
            className="gk-button gk-button-block"
            data-variant="filled"
          >
            Complete authentication
          </button>
          <button type="submit" name="outcome" value="fail" className="gk-button gk-button-block" data-variant="light">
            Fail authentication
          </button>
        </form>
      ) : (
        <p>
          {expired
            ? "This authentication has expired: the portal asks for a new one."
            : "This authentication was answered already."}{" "}
          <a href={returnUrl}>Return to the portal</a>
        </p>
      )}
    </AuthPage>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatDate } from "~/domain/format";
import { autoRenewDialog, confirmAutoRenew } from "~/server/subscriptions/renewals.server";
import { PageErrorBoundary } from "~/ui/page";
import { ConfirmDialog } from "~/ui/wizard/confirm-dialog";

/**
 * 'Turn off auto-renew' and 'Turn on auto-renew' over the licenses page: the confirmation says the license's last
 * day (off) or when it renews (on), and that nothing is charged by the change; confirming posts it.
 */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  autoRenewDialog(request, params.subscriptionId ?? "");
export const action = ({ request, params }: ActionFunctionArgs) =>
  confirmAutoRenew(request, params.subscriptionId ?? "");

export default function AutoRenew() {
  const { change, key } = useLoaderData<typeof loader>();
  const license = `License ${change.externalLicenseId} (${change.licenseName})`;
  const { turn } = change;
  return (
    <ConfirmDialog
      title={`Turn ${turn} auto-renew?`}
      confirmLabel={`Turn ${turn} auto-renew`}
      busyLabel={`Turning ${turn} auto-renew`}
      cancelLabel={turn === "off" ? "Keep auto-renew" : "Keep it off"}
      cancelTo="/licenses"
      intent={turn}
      fields={{ idempotency_key: key }}
    >
      {change.turn === "off" ? (
        <>
          {license} will not renew. Its last day is {formatDate(change.lastDay)}: it stays valid until then, and nothing
          more is charged.
        </>
      ) : (
        <>
          {license} renews on {formatDate(change.renewsOn)} and is charged then, to your card on file. Nothing is
          charged now.
        </>
      )}
    </ConfirmDialog>
  );
}

export const ErrorBoundary = PageErrorBoundary;

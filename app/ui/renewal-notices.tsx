import type { ReactNode } from "react";
import { formatCents, formatDate } from "~/domain/format";
import { BANK_ASKS_TO_CONFIRM, type RenewalNoticeView } from "~/domain/renewals";
import { Link } from "~/ui/link";

type EndedNotice = Extract<RenewalNoticeView, { kind: "cancelled_unpaid" }>;

/**
 * Failed renewals and the subscriptions they ended, first on the home, licenses and invoices pages: plain elements
 * drawn by content.css (every signed-in page has it), so that a page showing them loads nothing more. `renew` is
 * the page's way to renew an ended license; without it the notice leads to the licenses page, which has one.
 */
export function RenewalNotices({
  notices,
  renew,
}: {
  notices: RenewalNoticeView[];
  renew?: (notice: EndedNotice & { renewUrl: string }) => ReactNode;
}) {
  return notices.map((notice) => (
    <section key={notice.externalLicenseId} className="gk-card gk-notice" role="alert">
      {notice.kind === "payment_failed" ? (
        <>
          <h2>The renewal of {notice.licenseName} could not be charged</h2>
          <p>
            {formatCents(notice.amountDue)} is due for license {notice.externalLicenseId}. The license stops on{" "}
            {formatDate(notice.stopsOn)} unless it is paid.
          </p>
          {notice.bankAsks ? <p>{BANK_ASKS_TO_CONFIRM}</p> : null}
          <Link to={notice.payUrl} className="gk-link" aria-label={`Pay now for license ${notice.externalLicenseId}`}>
            Pay now
          </Link>
        </>
      ) : (
        <>
          <h2>The subscription of {notice.licenseName} was cancelled</h2>
          <p>
            Its renewal was not paid, so nothing more is charged and license {notice.externalLicenseId}{" "}
            {notice.renewUrl ? "stopped" : "stops"} on {formatDate(notice.stopsOn)}.
          </p>
          {notice.renewUrl && renew ? (
            renew({ ...notice, renewUrl: notice.renewUrl })
          ) : notice.renewUrl ? (
            <Link to="/licenses" className="gk-link">
              Renew it on the Licenses page
            </Link>
          ) : (
            <Link to="/store" className="gk-link">
              Buy a new license
            </Link>
          )}
        </>
      )}
    </section>
  ));
}

import { requireAdmin } from "~/server/accounts/access.server";
import { json, redirect, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { pageCount, requestedPage } from "~/domain/pagination";
import { mailLeavesThePortal, outboxPage } from "~/server/mail/index.server";
import { Card, Stack } from "~/ui/layout";
import { PageErrorBoundary, pageMeta } from "~/ui/page";
import { PageLinks } from "~/ui/page-links";
import { FORM_STYLES } from "~/ui/stylesheets";
import { Anchor, Text, Title } from "~/ui/typography";

export const links: LinksFunction = () => FORM_STYLES;

export const handle = { title: "Outbox" };
export const meta = pageMeta("Outbox");

const MESSAGES_PER_PAGE = 10;
const pageHref = (page: number) => (page === 1 ? "/admin/outbox" : `/admin/outbox?page=${page}`);

const HEADERS_STYLE = { display: "grid", gridTemplateColumns: "max-content 1fr", gap: "4px 16px", margin: 0 };
/** The text part as a mail program shows it: its own line breaks, long lines wrapped. */
const TEXT_STYLE = { whiteSpace: "pre-wrap", overflowWrap: "anywhere", fontFamily: "inherit", margin: 0 } as const;

const sentAt = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });

/**
 * The mail the portal kept instead of sending (no SMTP_URL), newest first: what every mailed flow sent, so it
 * can be followed on a fresh clone. GateKeeper administrators only: these are other people's sign-in links.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const page = requestedPage(new URL(request.url).searchParams.get("page"));
  if (page === null) throw redirect(pageHref(1));
  const { total, messages } = await outboxPage(page, MESSAGES_PER_PAGE);
  const pages = pageCount(total, MESSAGES_PER_PAGE);
  if (page > pages) throw redirect(pageHref(pages));
  return json({
    page,
    pages,
    total,
    viaSmtp: mailLeavesThePortal(),
    messages: messages.map(({ id, messageId, from, to, subject, text, createdAt }) => ({
      id,
      messageId,
      from,
      to,
      subject,
      text,
      sentAt: `${sentAt.format(createdAt)} UTC`,
    })),
  });
}

export default function Outbox() {
  const { page, pages, total, viaSmtp, messages } = useLoaderData<typeof loader>();
  return (
    <Stack gap="lg" maw={900}>
      <Text>
        {viaSmtp
          ? "Mail goes out through the SMTP server (SMTP_URL): the outbox keeps only what was sent before that."
          : "Without an SMTP server (SMTP_URL) the portal keeps its mail here instead of sending it, newest first."}
      </Text>
      {messages.length === 0 ? <Text>No mail yet.</Text> : null}
      {messages.map((message) => (
        <Card key={message.id} withBorder padding="lg" radius="md" aria-labelledby={`message-${message.id}`}>
          <Stack gap="sm">
            <Title order={2} size="h4" id={`message-${message.id}`}>
              {message.subject}
            </Title>
            <dl style={HEADERS_STYLE}>
              {[
                ["From", message.from],
                ["To", message.to],
                ["Sent", message.sentAt],
                ["Message-ID", message.messageId],
              ].map(([name, value]) => (
                <Fragment key={name}>
                  <dt style={{ fontWeight: 600 }}>{name}</dt>
                  <dd style={{ margin: 0, overflowWrap: "anywhere" }}>{value}</dd>
                </Fragment>
              ))}
            </dl>
            <pre style={TEXT_STYLE}>
              <LinkedText text={message.text} />
            </pre>
            <Anchor to={`/admin/outbox/${message.id}/html`} reloadDocument>
              The message&apos;s HTML part
            </Anchor>
          </Stack>
        </Card>
      ))}
      <PageLinks
        page={page}
        pageCount={pages}
        pageSize={MESSAGES_PER_PAGE}
        total={total}
        href={pageHref}
        label="Outbox pages"
      />
    </Stack>
  );
}

const WEB_ADDRESS = /(https?:\/\/[^\s<>"]+)/;

/** A message's plain text with its web addresses as links, as a mail program shows them. */
function LinkedText({ text }: { text: string }) {
  return text.split(WEB_ADDRESS).map((part, index) =>
    index % 2 === 1 ? (
      <a key={index} href={part}>
        {part}
      </a>
    ) : (
      <Fragment key={index}>{part}</Fragment>
    ),
  );
}

export const ErrorBoundary = PageErrorBoundary;

/**
 * A message's two parts, plain text and HTML, made from the same content, so every message has both and
 * they say the same. Everything put into the HTML is escaped here: callers hand over plain text only.
 */
export interface MailContent {
  /** Paragraphs of plain text, in order. */
  paragraphs: string[];
  /** Links after the paragraphs, one for each of several things the message is about (each license's own page). */
  links?: { label: string; url: string }[];
  /** The one thing the message asks the reader to do: a button in HTML, its label and address in the text. */
  action?: { label: string; url: string };
  /** Another way the reader may need (a sign-in link beside a password reset's): a link, after the button. */
  otherAction?: { label: string; url: string };
  /** Paragraphs after the action (what to do if the reader did not ask for this, how long a link works). */
  after?: string[];
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => ESCAPES[character]);

const SIGNATURE = "GateKeeper Portal";

/** Only a web address may be a mail's link: no `javascript:` or `data:` URL reaches a reader's mail program. */
function webAddress(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error(`Not a web address: ${url}`);
  return parsed.href;
}

export function composeMail(subject: string, content: MailContent): { text: string; html: string } {
  const after = content.after ?? [];
  const links = (content.links ?? []).map((link) => ({ label: link.label, url: webAddress(link.url) }));
  const action = content.action ? { label: content.action.label, url: webAddress(content.action.url) } : null;
  const other = content.otherAction
    ? { label: content.otherAction.label, url: webAddress(content.otherAction.url) }
    : null;
  const text = [
    ...content.paragraphs,
    ...links.map((link) => `${link.label}:\n${link.url}`),
    ...(action ? [`${action.label}:\n${action.url}`] : []),
    ...(other ? [`${other.label}:\n${other.url}`] : []),
    ...after,
    `-- \n${SIGNATURE}`,
  ].join("\n\n");
  const paragraph = (line: string) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`;
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#1c7ed6;color:#ffffff;` +
      `padding:10px 18px;border-radius:4px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#495057">Or open this address: ` +
      `<a href="${escapeHtml(action.url)}">${escapeHtml(action.url)}</a></p>`
    : "";
  const labelledLink = (link: { label: string; url: string }) =>
    `<p style="margin:0 0 16px"><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a>: ` +
    `<a href="${escapeHtml(link.url)}">${escapeHtml(link.url)}</a></p>`;
  const otherLink = other ? labelledLink(other) : "";
  const html =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#212529">` +
    content.paragraphs.map(paragraph).join("") +
    links.map(labelledLink).join("") +
    button +
    otherLink +
    after.map(paragraph).join("") +
    `<p style="margin:24px 0 0;color:#495057">${escapeHtml(SIGNATURE)}</p></body></html>`;
  return { text, html };
}

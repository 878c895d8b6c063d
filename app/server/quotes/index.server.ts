// What the quotes capability (priced, dated offers of a new license) offers the rest of the portal; its pages'
// modules are its own.
export { makeQuote, recordEvent as recordQuoteEvent, writeQuote } from "./quotes.server";
export { startQuoteReminders } from "./quote-reminders.server";

/**
 * The attributes of every `<name …>` start tag in server-rendered HTML. React always quotes attribute
 * values with " and escapes < > inside them, so a regular expression reads its markup reliably
 * without a full HTML parser.
 */
export function startTags(html, name) {
  return [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, "gi"))].map(([, attributes]) =>
    Object.fromEntries(
      [...attributes.matchAll(/([\w:-]+)(?:="([^"]*)")?/g)].map(([, key, value = ""]) => [
        key.toLowerCase(),
        value.replaceAll("&amp;", "&"),
      ]),
    ),
  );
}

/** Letters that no Unicode decomposition takes apart, written as people type them without the accent. */
const PLAIN_LETTERS: Record<string, string> = { ß: "ss", æ: "ae", ø: "o", œ: "oe", ł: "l", đ: "d", þ: "th", ı: "i" };

/**
 * A text as staff search compares it: accents dropped (compatibility decomposition, marks removed, and the
 * letters of PLAIN_LETTERS), lower case, runs of spaces made one. "Zoë Müller" and "zoe muller" have one key, so
 * a search finds a name however it is typed. Organizations' names and people's addresses keep their key in a
 * column (search_name, search_email), where a prefix search reads an index.
 */
export function searchKey(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[ßæøœłđþı]/g, (letter) => PLAIN_LETTERS[letter])
    .replace(/\s+/g, " ")
    .trim();
}

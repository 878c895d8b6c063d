/**
 * Names a test of the members' order gives its people: ties, different case, accents, an empty last name and a
 * trailing space, where a sort key that is not the names themselves would change the order.
 */
export const TRICKY_NAMES: [first: string, last: string][] = [
  ["Ann", "Smith"],
  ["ann", "Smith"],
  ["Ann", "smith"],
  ["Ann", "Smith"],
  ["Bob", "Smith"],
  ["Zoë", "Adams"],
  ["Émile", "Adams"],
  ["", "Adams"],
  ["Ann", ""],
  ["Ann", "Smithson"],
  ["Ann", "Smith "],
  ["Carl", "Östberg"],
];

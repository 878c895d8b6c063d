/**
 * Every text field has a ceiling: names, addresses and codes fit easily; a megabyte of text
 * in a name field is refused with a message next to the field instead of being stored or sent on.
 * No zod here: the sign-in page checks its fields with these alone (decision 062).
 */
export const MAX_TEXT_LENGTH = 200;
/** Passwords may be long passphrases, but scrypt should not hash a megabyte. */
export const MAX_PASSWORD_LENGTH = 256;
/** RFC 5321's longest address. */
export const MAX_EMAIL_LENGTH = 254;

export const tooLong = (max: number) => `Too long: at most ${max} characters.`;

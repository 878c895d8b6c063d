/**
 * A value made on its first use instead of on import: what a module would otherwise build from the secrets or the
 * database connection, which the start-up (boot.server) makes ready after every module is imported. Importing a
 * module never reads a secret nor touches the database.
 */
export function afterBoot<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

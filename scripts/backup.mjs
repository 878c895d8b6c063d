// `npm run backup -- <file>`: a consistent copy of the portal's SQLite database, taken while the portal runs,
// through SQLite's online backup (better-sqlite3's backup()). It copies every page in one step, inside one read
// transaction: with the write-ahead log a reader does not hold up the portal's writers, and what it copies is the
// database as of one moment, whatever the portal writes meanwhile. The copy is checked (integrity_check) before the
// command says it is done. What must be kept beside it: the license signing key and SESSION_SECRET (README).
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { sqliteFileOf } from "./sqlite-file.mjs";

/** Copies the SQLite database at `source` to `target` (a new file), and checks the copy. */
export async function backupSqlite(source, target) {
  if (!existsSync(source)) throw new Error(`There is no database at ${source}.`);
  if (existsSync(target)) throw new Error(`${target} exists already: name a new file.`);
  const database = new Database(source, { fileMustExist: true, timeout: 10_000 });
  try {
    await database.backup(target, { progress: () => Number.MAX_SAFE_INTEGER });
  } finally {
    database.close();
  }
  const copy = new Database(target, { readonly: true, fileMustExist: true });
  try {
    const [{ integrity_check: integrity }] = copy.pragma("integrity_check");
    if (integrity !== "ok") throw new Error(`The copy at ${target} fails SQLite's integrity check: ${integrity}`);
  } finally {
    copy.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const source = sqliteFileOf();
  const target = process.argv[2];
  if (source instanceof Error || !target) {
    console.error(source instanceof Error ? source.message : "Usage: npm run backup -- <file>");
    process.exit(1);
  }
  try {
    await backupSqlite(source, path.resolve(target));
    console.log(`Backed up ${source} to ${path.resolve(target)}.`);
    console.log("Keep the license signing key and the session secret with it (LICENSE_SIGNING_KEY, SESSION_SECRET,");
    console.log("or in demo mode .license-signing-key.pem and .portal-secret beside the database).");
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}

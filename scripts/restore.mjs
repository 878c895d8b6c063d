// `npm run restore -- <backup file>`: puts a backup (npm run backup) in the place of the portal's SQLite database.
// Run it on a STOPPED portal: a running one keeps the old file open and would go on writing to it. The backup is
// checked first (integrity_check, and that it is a portal database); the database it replaces is not deleted but
// moved aside, with its write-ahead log, as <file>.before-restore-<time>. The portal, started again, applies any
// migration the backup lacks.
import { copyFileSync, existsSync, renameSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { sqliteFileOf } from "./sqlite-file.mjs";

/** Checks that `backup` is a whole portal database. */
function checkBackup(backup) {
  if (!existsSync(backup)) throw new Error(`There is no backup at ${backup}.`);
  const database = new Database(backup, { readonly: true, fileMustExist: true });
  try {
    const [{ integrity_check: integrity }] = database.pragma("integrity_check");
    if (integrity !== "ok") throw new Error(`${backup} fails SQLite's integrity check: ${integrity}`);
    const tables = database.prepare("select name from sqlite_schema where type = 'table'").pluck().all();
    if (!tables.includes("__drizzle_migrations") || !tables.includes("organizations")) {
      throw new Error(`${backup} is not a portal database.`);
    }
  } finally {
    database.close();
  }
}

/** Restores `backup` as the database at `target`; returns where the database it replaced was moved, if any. */
export function restoreSqlite(backup, target) {
  checkBackup(backup);
  const incoming = `${target}.restoring`;
  copyFileSync(backup, incoming);
  let kept = null;
  if (existsSync(target)) {
    kept = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    for (const suffix of ["", "-wal", "-shm"]) {
      if (existsSync(target + suffix)) renameSync(target + suffix, kept + suffix);
    }
  }
  renameSync(incoming, target);
  return kept;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const target = sqliteFileOf();
  const backup = process.argv[2];
  if (target instanceof Error || !backup) {
    console.error(target instanceof Error ? target.message : "Usage: npm run restore -- <backup file>");
    process.exit(1);
  }
  try {
    const kept = restoreSqlite(path.resolve(backup), target);
    console.log(`Restored ${path.resolve(backup)} to ${target}.`);
    if (kept) console.log(`The database it replaced is at ${kept}.`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}

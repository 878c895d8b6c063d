import { licensePublicKeyPem } from "~/server/hubs/license-files.server";

/** The public key Hubs verify license files with (docs/license-files.md); public, like any public key. */
export function loader() {
  return new Response(licensePublicKeyPem(), {
    headers: { "Content-Type": "application/x-pem-file", "Cache-Control": "public, max-age=3600" },
  });
}

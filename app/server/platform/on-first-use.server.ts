/**
 * An outside service's SDK imported when the portal first calls the service, not when the server starts: Stripe's,
 * Chargebee's, nodemailer and PDFKit were a third of the CPU of every start (and of every test file's imports), in
 * portals that use the embedded adapters and print no document. The import is made once; one that failed is made
 * again on the next use.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load();
    loading.catch(() => (loading = undefined));
    return loading;
  };
}

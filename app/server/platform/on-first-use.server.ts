/**
 * An outside service's SDK imported when the portal first calls the service, not when the server starts: Stripe's,
 * Chargebee's, nodemailer and PDFKit were a quarter of the CPU of every start (and of every test file's imports), in
 * portals that use the embedded adapters and print no document. The import is made once; one that failed is made
 * again on the next use. A portal configured for the service starts the import after its start-up (`preload`), so
 * that no page waits for it.
 */
export interface SdkLoader<T> {
  (): Promise<T>;
  /** Starts the import in the background; a failure is left for the first use to meet. */
  preload(): void;
}

export function onFirstUse<T>(load: () => Promise<T>): SdkLoader<T> {
  let loading: Promise<T> | undefined;
  const loader = () => {
    loading ??= load();
    loading.catch(() => (loading = undefined));
    return loading;
  };
  return Object.assign(loader, { preload: () => void loader().catch(() => undefined) });
}

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.*"],
  serverModuleFormat: "esm",
  // Bundled: ESM-only packages, the country names JSON (Node will not import JSON without an attribute),
  // stdnum's per-country modules, whose ES module files import each other without file extensions, and Stripe.js's
  // loader, whose `pure` entry is a directory (no exports map), which Node's ES module imports refuse.
  serverDependenciesToBundle: [
    /^remix-utils.*/,
    /^@mantine\/.*/,
    /^i18n-iso-countries\/langs\//,
    /^stdnum\//,
    /^@stripe\/stripe-js\//,
  ],
  postcss: true,
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};

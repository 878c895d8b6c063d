import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const MANTINE_INDEX = {
  name: "@mantine/core",
  allowTypeImports: true,
  message: 'Import the part from "@mantine-parts/..." (app/mantine-parts.d.ts); types may come from @mantine/core.',
};

export default tseslint.config(
  {
    ignores: [
      "build/",
      "public/build/",
      ".cache/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "db/migrations/",
      "db/migrations-postgres/",
      // Wrong on purpose: tests/architecture/promise-lint.test.ts lints them and expects each finding.
      "tests/fixtures/unawaited-promises/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-aware rules (decision 205): every file is typed by its nearest tsconfig.json (the .js, .cjs and .mjs
    // files too: tsconfig.json includes them). An un-awaited query never runs on PostgreSQL, a promise in an `if`
    // is always true, and an async function where a void callback is expected loses its rejection.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // drizzle's query builders implement Promise without extending it: only checkThenables counts them.
      "@typescript-eslint/no-floating-promises": ["error", { checkThenables: true }],
      // Every void-return check stays on, JSX attributes included: React ignores what a handler returns, and
      // Remix's navigate, submit and revalidate return nothing to await.
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: true }],
    },
  },
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { react, "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    settings: { react: { version: "18" } },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs["jsx-runtime"].rules,
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.configs.recommended.rules,
      "react/prop-types": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // Server-only code must stay out of the browser bundle.
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/server/**", "~/server/*"],
              message: "Only routes and server modules may import server code.",
            },
          ],
        },
      ],
    },
  },
  {
    // Mantine's parts one module at a time (app/mantine-parts.d.ts): the index would put every part in
    // the JavaScript of every page.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/mantine-parts.d.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [MANTINE_INDEX],
        },
      ],
    },
  },
  {
    // A page's modules never import zod, the zod adapter, the phone and country data or a module that defines
    // schemas, not even for an action or a constant: esbuild puts whatever a page's modules reach in its
    // JavaScript. Validators load their schemas with import() (app/domain/lazy-validator.ts, decision 105).
    files: ["app/routes/**/*.{ts,tsx}", "app/ui/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            MANTINE_INDEX,
            {
              name: "remix-validated-form",
              importNames: ["ValidatedForm"],
              message:
                "Use ValidatedForm from ~/ui/validated-form: it drops checks that end after the form has gone (decision 105).",
            },
            {
              name: "@remix-run/react",
              importNames: ["Link", "NavLink"],
              message: "Use Link from ~/ui/link: a plain <a> that one listener in the root navigates (decision 131).",
            },
            ...[
              "zod",
              "@remix-validated-form/with-zod",
              "libphonenumber-js",
              "libphonenumber-js/min",
              "i18n-iso-countries",
              "~/domain/billing-forms",
              "~/domain/cloud-hub",
              "~/domain/contact-fields",
              "~/domain/countries",
              "~/domain/fields",
              "~/domain/license-update-forms",
              "~/domain/new-subscription",
              "~/domain/phone",
              "~/domain/profile",
              "~/domain/time-machine-form",
              "~/domain/trial-wizard",
              "~/domain/wizard",
            ].map((name) => ({
              name,
              allowTypeImports: true,
              message:
                "Pages load schemas lazily: lazyValidator(() => import(...)), constants from the *-steps modules, lists from the loader (decision 105).",
            })),
          ],
        },
      ],
    },
  },
  {
    files: [
      "app/routes/**",
      "app/server/**",
      "db/**",
      "tests/**",
      "e2e/**",
      "scripts/**",
      "app/entry.server.tsx",
      "app/root.tsx",
    ],
    rules: { "no-restricted-imports": "off" },
  },
  {
    // One clock rule: billing-dated code reads the portal's clock (portalNow, which the time machine moves), and
    // says so where it means real time (realNow, app/server/platform/real-time.server.ts); never a bare `new Date()`.
    files: [
      "app/server/subscriptions/**",
      "app/server/orders/**",
      "app/server/trials/**",
      "app/server/cloud-hubs/**",
      "app/server/resellers/**",
      "app/server/quotes/**",
      "app/domain/quotes.ts",
      "app/domain/customers.ts",
      "app/domain/license-status.ts",
      "app/domain/renewals.ts",
      "app/domain/renewal-reminders.ts",
    ],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message:
            "Billing-dated code reads the portal's clock (portalNow) or, for what is not dated by billing, realNow().",
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message:
            "Billing-dated code reads the portal's clock (portalNow) or, for what is not dated by billing, realNow().",
        },
      ],
    },
  },
  {
    // Playwright's fixture callback `use` is not a React hook.
    files: ["e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // CommonJS on purpose: postcss.config.cjs loads its plugins with require().
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);

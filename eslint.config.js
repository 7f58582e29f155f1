// One linter for the whole repository: typescript-eslint with type information, React hooks and
// jsx-a11y for the app, Prettier's config last so that formatting is Prettier's alone.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The layers' boundary (docs/architecture.md, decision 0117). Code that reaches the browser bundle
// (app/components, app/lib, app/enhance) and code both sides run (domain/) must not import server code: the
// `#server/` alias, any `*.server` module, Node's built-ins, or the packages below. Route modules and root.tsx
// are left out on purpose: their loaders and actions import server modules, React Router removes those from
// the client build, and its build fails if a `*.server` module is still reachable from client code.
const serverOnlyPackages = ["pg", "@electric-sql/pglite", "sharp", "ioredis", "nodemailer", "express", "@aws-sdk/*", "@tus/server", "@tus/file-store"];
const serverImports = (why, { allowTypeImports }) => [
  // Types vanish from the bundle: a component may name the shape a loader returns (`import type`).
  {
    regex: "^#server/|^(\\.\\./)+server/|\\.server(\\.[cm]?[jt]sx?)?$",
    allowTypeImports,
    message: `${why} must not import server code (#server/…, *.server).`,
  },
  { regex: "^node:", message: `${why} must not import Node's built-in modules.` },
  { group: serverOnlyPackages, message: `${why} must not import a server-only package.` },
];
// `import()` is not covered by no-restricted-imports. \x2F is "/": selectors' regular expressions take no slash.
const serverDynamicImport = (why) => ({
  selector: "ImportExpression[source.value=/^#server\\x2F|\\.server(\\.[cm]?[jt]sx?)?$|^node:/]",
  message: `${why} must not import server code.`,
});
const browserCode = "Browser code (app/components, app/lib, app/enhance)";
const sharedCode = "Code both sides run (domain/)";
const tests = ["**/*.test.ts", "**/*.test.tsx", "tests/**"];

export default tseslint.config(
  { ignores: ["build/", "build-*/", "data/", ".react-router/", "node_modules/", "coverage/", "test-results/"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ["*.js", "*.mjs", "scripts/*.mjs"] }, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // Express and React Router handlers are called for their promise by frameworks that await them.
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false, arguments: false } }],
      "@typescript-eslint/only-throw-error": "off", // React Router loaders throw Response objects by design.
      // Its fix removes assertions that stop a literal from widening inside an object literal (tsc then fails).
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ...reactHooks.configs.flat["recommended-latest"],
    ...jsxA11y.flatConfigs.recommended,
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: { ...reactHooks.configs.flat["recommended-latest"].rules, ...jsxA11y.flatConfigs.recommended.rules },
    languageOptions: { ...jsxA11y.flatConfigs.recommended.languageOptions, globals: { ...globals.browser, ...globals.node } },
  },
  {
    // One useTranslation: app/lib/i18n.ts's, which is react-i18next's in the browser and a lookup on the server.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/lib/i18n.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "react-i18next", importNames: ["useTranslation"], message: "Use useTranslation of #app/lib/i18n.ts (decision 0153)." }] },
      ],
    },
  },
  { files: ["**/*.js", "**/*.mjs"], ...tseslint.configs.disableTypeChecked },
  // Enhancement scripts served to the browser as they are (app/lib/static-page.ts).
  { files: ["app/enhance/**/*.js"], languageOptions: { globals: globals.browser } },
  {
    files: ["app/components/**", "app/lib/**", "app/enhance/**"],
    ignores: ["app/**/*.server.ts", ...tests],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: serverImports(browserCode, { allowTypeImports: true }) }],
      "no-restricted-syntax": ["error", serverDynamicImport(browserCode)],
    },
  },
  {
    files: ["domain/**"],
    ignores: tests,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            // Not even types: what both sides share is defined here, and the server imports it from here.
            ...serverImports(sharedCode, { allowTypeImports: false }),
            { regex: "^#app/", message: `${sharedCode} must not import the React app (#app/…): move what both need to domain/.` },
            { regex: "^(\\.\\./)+app/", message: `${sharedCode} must not import the React app: move what both need to domain/.` },
          ],
        },
      ],
      "no-restricted-syntax": ["error", serverDynamicImport(sharedCode)],
    },
  },
  {
    files: ["server/**"],
    ignores: tests,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^#app/", message: "Server code must not import the React app (#app/…): move what both need to domain/." },
            { regex: "^(\\.\\./)+app/", message: "Server code must not import the React app: move what both need to domain/." },
          ],
        },
      ],
    },
  },
  prettier,
);

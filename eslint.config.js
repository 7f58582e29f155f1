// One linter for the whole repository: typescript-eslint with type information, React hooks and
// jsx-a11y for the app, Prettier's config last so that formatting is Prettier's alone.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

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
  { files: ["**/*.js", "**/*.mjs"], ...tseslint.configs.disableTypeChecked },
  // Enhancement scripts served to the browser as they are (app/lib/static-page.ts).
  { files: ["app/enhance/**/*.js"], languageOptions: { globals: globals.browser } },
  prettier,
);

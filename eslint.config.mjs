import js from "@eslint/js";
import nextVitals from "eslint-config-next/core-web-vitals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", ".next-*/", "data/", "test-results/", "db/migrations/", "next-env.d.ts", "dist/"] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  ...nextVitals,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-non-null-assertion": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "off",
      // Pages link with plain anchors: every page is a server-rendered document, and the incident
      // and change pages are rendered without Next (docs/decisions/0035-archive-pages-without-next.md).
      "@next/next/no-html-link-for-pages": "off",
    },
  },
  {
    // Data access is asynchronous (PostgreSQL's driver is): a promise nobody awaits is a write that
    // may not have happened, or an error nobody sees. These rules read types, so they get the project.
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/await-thenable": "error",
    },
  },
  {
    // The document of the pages rendered without Next is written whole, head included.
    files: ["components/html-document.tsx"],
    rules: { "@next/next/no-head-element": "off" },
  },
  {
    // The build and its launcher run before anything is compiled, as plain CommonJS.
    files: ["scripts/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { require: "readonly", module: "readonly", __dirname: "readonly", process: "readonly", console: "readonly" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);

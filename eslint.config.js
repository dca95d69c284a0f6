// ESLint for Kaisa's page scripts (browser modules) and their unit tests (node's test runner).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", "test-artifacts/", "docs/"] },
  js.configs.recommended,
  {
    files: ["src/kaisa/web/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["tests/js/**/*.js", "tests/js/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];

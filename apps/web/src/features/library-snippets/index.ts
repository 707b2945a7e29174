export { LibrarySnippets } from "./library-snippets.js";

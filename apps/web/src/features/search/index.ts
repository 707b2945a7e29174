export { HeaderSearch } from "./header-search.js";

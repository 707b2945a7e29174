export { ThemeSwitcher } from "./theme-switcher.js";
